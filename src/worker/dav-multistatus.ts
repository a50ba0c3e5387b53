// Reads a WebDAV multistatus answer (RFC 4918 §14.16: responses, their href and status, their
// propstats' properties) from a CalDAV server, which may be hostile: the server is whatever a
// holder's source points at. So the read is linear in the answer and bounded, and it never holds
// the event loop for long (issue 25, finding 2: tsdav's reader, xml-js with a property merge per
// text and per propstat, took ~15 s on the main thread for one 330 KB PROPFIND answer).
//
// - sax, a push parser, reads the bytes in slices of SLICE_BYTES with the event loop free between
//   them (one slice costs a few milliseconds), and the fetch's deadline is checked after each, so
//   the sync timeout ends a parse like it ends a download.
// - sax runs without its namespace processing, whose duplicate-attribute check is quadratic in the
//   attributes of one element; namespaces are resolved here, along a stack at most `maxDepth` deep.
// - Elements in the answer, elements in one response, nesting depth and attributes per element are
//   capped (MultistatusLimits): past a cap the read stops with a MultistatusLimitExceeded whose
//   message is a fixed phrase with the number. sax caps every name, attribute value and text
//   buffer at 64 KB, and expands no entity it was not born with (no DTD is read).
// - Only what the caller asks for is kept: hrefs, statuses, and the text and child names of the
//   `wanted` properties; everything else is counted and dropped.
import { setImmediate as nextTurn } from 'node:timers/promises';
import sax, { type SAXParser } from 'sax';

export interface MultistatusLimits {
  /** Elements in the whole answer. */
  maxElements: number;
  /** Elements in one <response>, itself included. */
  maxElementsPerResponse: number;
  /** Elements open at once (the root is depth 1). */
  maxDepth: number;
  /** Attributes of one element, namespace declarations included. */
  maxAttributes: number;
}

/** A property as read: its text (trimmed) and the names of its child elements (`{namespace}local`). */
export interface DavProperty {
  text: string;
  children: string[];
}

export interface DavResponse {
  /** The <href> text, trimmed. */
  href: string;
  /** Whether the response's own <status> (when it has one) is 2xx. */
  ok: boolean;
  /** The `wanted` properties of its propstats with a 2xx status (or none), by `{namespace}local`. */
  props: Map<string, DavProperty>;
}

/** The answer passed one of the MultistatusLimits; the message is fit for `lastError`. */
export class MultistatusLimitExceeded extends Error {}

/** Bytes given to sax between two turns of the event loop. */
export const SLICE_BYTES = 16 * 1024;

const DAV = 'DAV:';
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** `{namespace}local` (Clark notation), the form `wanted` and DavProperty's children use. */
export const qualified = (namespace: string, local: string): string => `{${namespace}}${local}`;

const MULTISTATUS = qualified(DAV, 'multistatus');
const RESPONSE = qualified(DAV, 'response');
const HREF = qualified(DAV, 'href');
const STATUS = qualified(DAV, 'status');
const PROPSTAT = qualified(DAV, 'propstat');
const PROP = qualified(DAV, 'prop');

/** What an open element is to the reader: the role decides what its text and children become. */
type Role =
  | 'multistatus'
  | 'response'
  | 'href'
  | 'response-status'
  | 'propstat'
  | 'propstat-status'
  | 'prop'
  | 'property'
  | 'ignored';

/** The roles whose own text is kept (a property's text is kept, its children's is not). */
const CAPTURES_TEXT: ReadonlySet<Role> = new Set(['href', 'response-status', 'propstat-status', 'property']);

interface Frame {
  role: Role;
  /** The prefixes this element declares (`''`: the default namespace), or null. */
  declared: Map<string, string> | null;
}

interface OpenResponse {
  href: string;
  status: string | null;
  props: Map<string, DavProperty>;
}

interface OpenPropstat {
  status: string | null;
  props: Map<string, DavProperty>;
}

/** Not a multistatus document (another root, or not well-formed XML). */
class NotMultistatus extends Error {}

/**
 * The responses of a multistatus answer, or null when the body is not one (another root element,
 * or not well-formed XML). Throws MultistatusLimitExceeded past a cap, and the signal's reason
 * when it aborts (checked between slices).
 */
export async function readMultistatus(
  body: Buffer,
  wanted: ReadonlySet<string>,
  limits: MultistatusLimits,
  signal: AbortSignal,
): Promise<DavResponse[] | null> {
  const responses: DavResponse[] = [];
  const stack: Frame[] = [];
  let elements = 0;
  let responseElements = 0;
  let attributes = 0;
  let declaring: Map<string, string> | null = null;
  let response: OpenResponse | null = null;
  let propstat: OpenPropstat | null = null;
  let property: DavProperty | null = null;
  let text = '';

  const resolve = (prefix: string): string | undefined => {
    if (declaring?.has(prefix)) return declaring.get(prefix);
    for (let at = stack.length - 1; at >= 0; at--) {
      const namespace = stack[at]!.declared?.get(prefix);
      if (namespace !== undefined) return namespace;
    }
    if (prefix === 'xml') return XML_NAMESPACE;
    return prefix === '' ? '' : undefined;
  };

  const parser = sax.parser(true, { xmlns: false, position: false });
  parser.onerror = (error) => {
    throw error;
  };
  parser.onopentagstart = () => {
    attributes = 0;
    declaring = null;
  };
  parser.onattribute = ({ name, value }) => {
    if (++attributes > limits.maxAttributes) {
      throw new MultistatusLimitExceeded(
        `the CalDAV server's answer has an XML element with more than ${limits.maxAttributes} attributes`,
      );
    }
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      declaring ??= new Map();
      declaring.set(name === 'xmlns' ? '' : name.slice('xmlns:'.length), value);
    }
  };
  parser.onopentag = ({ name }) => {
    if (++elements > limits.maxElements) {
      throw new MultistatusLimitExceeded(`the CalDAV server's answer has more than ${limits.maxElements} XML elements`);
    }
    if (response && ++responseElements > limits.maxElementsPerResponse) {
      throw new MultistatusLimitExceeded(
        `the CalDAV server's answer has a response with more than ${limits.maxElementsPerResponse} XML elements`,
      );
    }
    if (stack.length >= limits.maxDepth) {
      throw new MultistatusLimitExceeded(
        `the CalDAV server's answer nests XML elements more than ${limits.maxDepth} deep`,
      );
    }
    const colon = name.indexOf(':');
    const namespace = resolve(colon === -1 ? '' : name.slice(0, colon));
    if (namespace === undefined) throw new NotMultistatus();
    const element = qualified(namespace, colon === -1 ? name : name.slice(colon + 1));
    const parent = stack.at(-1)?.role;
    let role: Role = 'ignored';
    if (parent === undefined) {
      if (element !== MULTISTATUS) throw new NotMultistatus();
      role = 'multistatus';
    } else if (parent === 'multistatus' && element === RESPONSE) {
      role = 'response';
      response = { href: '', status: null, props: new Map() };
      responseElements = 1;
    } else if (parent === 'response') {
      if (element === HREF) role = 'href';
      else if (element === STATUS) role = 'response-status';
      else if (element === PROPSTAT) {
        role = 'propstat';
        propstat = { status: null, props: new Map() };
      }
    } else if (parent === 'propstat') {
      if (element === PROP) role = 'prop';
      else if (element === STATUS) role = 'propstat-status';
    } else if (parent === 'prop' && wanted.has(element)) {
      role = 'property';
      property = { text: '', children: [] };
      propstat!.props.set(element, property);
    } else if (parent === 'property') {
      property!.children.push(element);
    }
    if (CAPTURES_TEXT.has(role)) text = '';
    stack.push({ role, declared: declaring });
    declaring = null;
  };
  const onText = (piece: string) => {
    const open = stack.at(-1);
    if (open && CAPTURES_TEXT.has(open.role)) text += piece;
  };
  parser.ontext = onText;
  parser.oncdata = onText;
  parser.onclosetag = () => {
    const frame = stack.pop()!;
    switch (frame.role) {
      case 'href':
        response!.href = text.trim();
        break;
      case 'response-status':
        response!.status = text.trim();
        break;
      case 'propstat-status':
        propstat!.status = text.trim();
        break;
      case 'property':
        property!.text = text.trim();
        property = null;
        break;
      case 'propstat':
        if (isSuccess(propstat!.status)) for (const [name, value] of propstat!.props) response!.props.set(name, value);
        propstat = null;
        break;
      case 'response':
        responses.push({ href: response!.href, ok: isSuccess(response!.status), props: response!.props });
        response = null;
        break;
    }
  };

  const decoder = new TextDecoder('utf-8');
  for (let at = 0; at < body.length; at += SLICE_BYTES) {
    if (!write(parser, decoder.decode(body.subarray(at, at + SLICE_BYTES), { stream: true }))) return null;
    await nextTurn();
    if (signal.aborted) throw signal.reason;
  }
  if (!write(parser, decoder.decode()) || !close(parser)) return null;
  return stack.length === 0 && elements > 0 ? responses : null;
}

/** Feeds sax; false when the text is not well-formed XML or not a multistatus document. */
function write(parser: SAXParser, text: string): boolean {
  return settle(() => parser.write(text));
}

function close(parser: SAXParser): boolean {
  return settle(() => parser.close());
}

function settle(step: () => void): boolean {
  try {
    step();
    return true;
  } catch (error) {
    if (error instanceof MultistatusLimitExceeded) throw error;
    return false;
  }
}

/** A missing status counts as success; otherwise `HTTP/1.1 2xx …`. */
function isSuccess(statusLine: string | null): boolean {
  if (statusLine === null) return true;
  const status = /^\S+\s+(\d{3})\b/.exec(statusLine)?.[1];
  return status !== undefined && status.startsWith('2');
}
