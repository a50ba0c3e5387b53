import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import { MESSAGES, type Locale } from './messages.js';

export interface PageFrame {
  locale: Locale;
  title: string;
  /** Where the site's pages live: '' or the path of `PUBLIC_BASE_URL` (`/slotwise`). */
  root: string;
}

/**
 * The document every page shares. Rendered by Preact on the server, which escapes every text and
 * attribute it writes: holder and guest text can only ever be text (docs/architecture.md, "Pages").
 * No inline script or style anywhere, so the Content-Security-Policy can forbid them.
 */
function Document(props: PageFrame & { children: ComponentChildren }) {
  const m = MESSAGES[props.locale];
  return (
    <html lang={props.locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <link rel="stylesheet" href={`${props.root}/assets/pages.css`} />
        <script src={`${props.root}/assets/pages.js`} defer />
      </head>
      <body>
        <main>{props.children}</main>
        <footer>
          <p>{m.poweredBy}</p>
        </footer>
      </body>
    </html>
  );
}

export function renderPage(frame: PageFrame, body: ComponentChildren): string {
  return `<!doctype html>${render(<Document {...frame}>{body}</Document>)}`;
}
