import { Anchor, Box, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { LevelCard, ResourceCard, TeacherResources } from '@quire/core';
import {
  IconBallFootball, IconBook, IconCalculator, IconExternalLink, IconFlask, IconLanguage, IconMessages, IconPalette,
  IconPresentation, IconPuzzle, IconRocket, IconWorld, type Icon,
} from '@tabler/icons-react';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { errorMessageOf } from '../../../lib/notify.js';
import { useTeacherResources } from '../api/get-teacher-resources.js';
import { BookCover } from './book-cover.js';

const SUBJECT_ICONS: Record<string, Icon> = {
  ela: IconBook,
  math: IconCalculator,
  science: IconFlask,
  'social-studies': IconWorld,
  languages: IconLanguage,
  'special-education': IconPuzzle,
  'creative-arts': IconPalette,
  'pe-health': IconBallFootball,
};

/** A dark colour per school level: white text on each keeps a contrast above 4.5:1. */
const LEVEL_COLOURS: Record<LevelCard['level'], string> = {
  kindergarten: '#b91c1c',
  elementary: '#1d4ed8',
  'middle-school': '#047857',
  'high-school': '#6d28d9',
};

const newWindow = { target: '_blank', rel: 'noopener noreferrer' } as const;

function NewWindowNote() {
  return <VisuallyHidden> (opens in a new window)</VisuallyHidden>;
}

function SubjectCard({ card }: { card: ResourceCard }) {
  const IconOf = SUBJECT_ICONS[card.icon] ?? IconBook;
  return (
    <Card component="a" href={card.link} {...newWindow} className="mantine-focus-auto" withBorder padding="md" radius="md" data-testid="subject-card">
      <Stack align="center" gap="xs">
        <IconOf size={40} stroke={1.5} aria-hidden />
        <Text fw={600} ta="center">
          {card.title}
          <NewWindowNote />
        </Text>
      </Stack>
    </Card>
  );
}

function bookLink(resources: TeacherResources, bookId: string): string {
  return `${resources.readerUrl.replace(/\/+$/, '')}/${encodeURIComponent(resources.readerLibraryId)}/${encodeURIComponent(bookId)}`;
}

/**
 * Teacher Resources (spec §2): the grade heading (its grade items are not shown), the school-level cards, subjects,
 * featured books and promo cards; every link from configuration. Cards that are links carry Mantine's focus ring.
 */
export function ResourcesPage() {
  const { productName } = useConsoleConfig();
  const resources = useTeacherResources();

  if (resources.isPending) {
    return (
      <>
        <PageTitle>Teacher Resources</PageTitle>
        <Center py="xl">
          <Loader aria-label="Loading resources" />
        </Center>
      </>
    );
  }
  if (resources.isError) {
    return (
      <>
        <PageTitle>Teacher Resources</PageTitle>
        <LoadError title={errorMessageOf(resources.error, 'Something went wrong')} onRetry={() => resources.refetch()} />
      </>
    );
  }
  const data = resources.data;
  return (
    <>
      <PageTitle>Teacher Resources</PageTitle>
      <Stack gap="xl">
        <Box component="section" aria-labelledby="resources-by-grade">
          <Title order={2} id="resources-by-grade" mb="sm">
            Resources by grade
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            {data.levels.map((level) => (
              <Card key={level.level} component="a" href={level.link} {...newWindow} className="mantine-focus-auto" padding="lg" radius="md" style={{ backgroundColor: LEVEL_COLOURS[level.level], color: '#ffffff' }} data-testid="level-card">
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={700} size="lg" c="white">
                    {level.title}
                    <NewWindowNote />
                  </Text>
                  <IconExternalLink size={20} aria-hidden />
                </Group>
              </Card>
            ))}
          </SimpleGrid>
        </Box>

        <Box component="section" aria-labelledby="resources-by-subject">
          <Title order={2} id="resources-by-subject" mb="sm">
            Resources by subject
          </Title>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {data.subjects.map((card) => (
              <SubjectCard key={card.title} card={card} />
            ))}
          </SimpleGrid>
        </Box>

        <Box component="section" aria-labelledby="featured-books">
          <Title order={2} id="featured-books" mb="sm">
            {`Supercharge your ${productName} lessons`}
          </Title>
          <Group gap="lg" align="flex-start" component="ul" style={{ listStyle: 'none', padding: 0 }}>
            {data.featuredBooks.map((book) => (
              <li key={book.bookId}>
                <Anchor href={bookLink(data, book.bookId)} {...newWindow} data-testid="featured-book" style={{ display: 'block' }}>
                  <BookCover book={book} />
                  <NewWindowNote />
                </Anchor>
              </li>
            ))}
          </Group>
        </Box>

        <SimpleGrid component="section" aria-label="More for teachers" cols={{ base: 1, md: 3 }}>
          <PromoCard icon={IconMessages} title="Community" text={`Share ideas with other teachers using ${productName}.`} label="Join the discussion" href={data.promos.community} />
          <PromoCard icon={IconPresentation} title="Staff training" text="A presentation template for training your staff." label="Get your copy here" href={data.promos.staffTraining} />
          <PromoCard icon={IconRocket} title="Getting started" text={`A guide to getting started with the ${productName} web app.`} label="Learn more" href={data.promos.gettingStarted} />
        </SimpleGrid>
      </Stack>
    </>
  );
}

function PromoCard({ icon: IconOf, title, text, label, href }: { icon: Icon; title: string; text: string; label: string; href: string }) {
  return (
    <Card withBorder padding="lg" radius="md">
      <Stack gap="sm" align="flex-start">
        <IconOf size={32} stroke={1.5} aria-hidden />
        <Title order={3} size="h4">
          {title}
        </Title>
        <Text>{text}</Text>
        <Button component="a" href={href} {...newWindow} variant="light" rightSection={<IconExternalLink size={16} aria-hidden />}>
          {label}
          <NewWindowNote />
        </Button>
      </Stack>
    </Card>
  );
}
