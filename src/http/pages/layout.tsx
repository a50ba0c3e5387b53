import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import { LOCALES, MESSAGES, type Locale } from './messages.js';

export interface PageFrame {
  locale: Locale;
  title: string;
  /** Where the site's pages live: '' or the path of `PUBLIC_BASE_URL` (`/slotwise`). */
  root: string;
  /** The page in each language (its address with another `lang`); no language links when absent. */
  inLanguage?: (locale: Locale) => string;
  /** Set when the page is shown in a frame (`?embed=1`): no header or footer, and whom it may tell what. */
  embed?: EmbedFrame | null;
}

export interface EmbedFrame {
  /** `PUBLIC_EMBED_ORIGINS`: the only windows the page's script posts messages to. */
  origins: readonly string[];
  /** What the page tells the embedding window once it has loaded (a booking made), if anything. */
  message?: Readonly<Record<string, unknown>>;
}

/**
 * The document every page shares. Rendered by Preact on the server, which escapes every text and
 * attribute it writes: holder and guest text can only ever be text (docs/architecture.md, "Pages").
 * No inline script or style anywhere, so the Content-Security-Policy can forbid them: what the
 * script needs from the server travels in `data-` attributes.
 */
function Document(props: PageFrame & { children: ComponentChildren }) {
  const m = MESSAGES[props.locale];
  const embed = props.embed ?? null;
  return (
    <html lang={props.locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <link rel="stylesheet" href={`${props.root}/assets/pages.css`} />
        <script src={`${props.root}/assets/pages.js`} defer />
      </head>
      <body
        class={embed ? 'embedded' : undefined}
        data-embed-origins={embed ? embed.origins.join(' ') : undefined}
        data-embed-message={embed?.message ? JSON.stringify(embed.message) : undefined}
      >
        <main>{props.children}</main>
        {!embed && (
          <footer>
            {props.inLanguage && (
              <nav aria-label={m.language}>
                <ul class="languages">
                  {LOCALES.map((locale) => (
                    <li>
                      {locale === props.locale ? (
                        <span aria-current="true" lang={locale}>
                          {MESSAGES[locale].languageName}
                        </span>
                      ) : (
                        <a href={props.inLanguage!(locale)} lang={locale} hrefLang={locale}>
                          {MESSAGES[locale].languageName}
                        </a>
                      )}
                    </li>
                  ))}
                </ul>
              </nav>
            )}
            <p>{m.poweredBy}</p>
          </footer>
        )}
      </body>
    </html>
  );
}

export function renderPage(frame: PageFrame, body: ComponentChildren): string {
  return `<!doctype html>${render(<Document {...frame}>{body}</Document>)}`;
}
