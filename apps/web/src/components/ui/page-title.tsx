import { Title, type TitleProps } from '@mantine/core';
import { useConsoleConfig } from '../../lib/console-config.js';
import { useDocumentTitle } from '../../lib/document-title.js';

export interface PageTitleProps extends Omit<TitleProps, 'order' | 'children'> {
  /** The screen's title, e.g. 'Teachers': the page's one <h1> and the start of document.title. */
  children: string;
}

/** A screen's heading; also names the browser tab "{title} | {product}". */
export function PageTitle({ children, ...props }: PageTitleProps) {
  const { productName } = useConsoleConfig();
  useDocumentTitle(children, productName);
  return (
    <Title order={1} mb="lg" {...props}>
      {children}
    </Title>
  );
}
