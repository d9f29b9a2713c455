import { Alert, Button, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { portfolioMessages } from '@quire/core';
import { IconDownload, IconInfoCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { MouseEvent } from 'react';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { isApiError } from '../../../lib/api/index.js';
import { errorMessageOf } from '../../../lib/notify.js';
import { useSession } from '../../../lib/session/index.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { getPortfolioDownload, usePortfolioDownload } from '../api/get-portfolio-download.js';

const generatedText = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' });

/**
 * Portfolios (spec §2): download every student's portfolio as one CSV. The link is signed and expires
 * refreshIn seconds after it arrived; the page renews it before then, and a click on a link that has
 * expired meanwhile (a sleeping laptop) fetches a fresh one first (docs/portfolios.md).
 */
export function PortfoliosPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const orgId = session.currentOrganisation?.id ?? '';
  const userId = session.user?.uid ?? '';
  const download = usePortfolioDownload(orgId, userId);

  const onDownload = async (event: MouseEvent<HTMLAnchorElement>) => {
    const link = download.data;
    if (!link || link.expiresAt > Date.now() + 2_000) return;
    event.preventDefault();
    const fresh = await queryClient.fetchQuery({ queryKey: queryKeys.portfolioDownload(orgId), queryFn: () => getPortfolioDownload(orgId, userId), staleTime: 0 });
    window.location.assign(fresh.url);
  };

  let body;
  if (download.isPending) {
    body = (
      <Center py="xl">
        <Loader aria-label="Loading portfolio data" />
      </Center>
    );
  } else if (download.data) {
    body = (
      <Paper withBorder p="lg" maw={560}>
        <Stack gap="sm" align="flex-start">
          <Text>Every student&apos;s portfolio: the books they published, with pages, dates, and the teacher and class each came from.</Text>
          <Text size="sm" c="dimmed" data-testid="portfolio-generated">
            Generated {generatedText(download.data.generatedAt)}
          </Text>
          <Button component="a" href={download.data.url} download leftSection={<IconDownload size={18} aria-hidden />} onClick={onDownload}>
            Download CSV
          </Button>
        </Stack>
      </Paper>
    );
  } else {
    const error = download.error;
    if (isApiError(error) && error.status === 425) {
      body = (
        <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />} title={portfolioMessages.notReady} maw={560} role="status">
          {portfolioMessages.notReadyNote}
        </Alert>
      );
    } else if (isApiError(error) && error.status === 404) {
      body = (
        <Alert color="gray" variant="light" icon={<IconInfoCircle aria-hidden />} maw={560} role="status">
          {portfolioMessages.notEnabled}
        </Alert>
      );
    } else {
      body = (
        <LoadError title={errorMessageOf(error, 'Something went wrong')} onRetry={() => download.refetch()} />
      );
    }
  }

  return (
    <>
      <PageTitle>Portfolios</PageTitle>
      <Text mb="md">Download student portfolio data as a CSV.</Text>
      {body}
    </>
  );
}
