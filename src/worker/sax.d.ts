// The part of sax (https://github.com/isaacs/sax-js, which ships no types) that
// dav-multistatus.ts uses: a strict push parser without namespace processing, its events set as
// properties. A handler that throws ends the `write` or `close` that emitted the event.
declare module 'sax' {
  export interface Tag {
    name: string;
    isSelfClosing: boolean;
  }

  export interface Attribute {
    name: string;
    value: string;
  }

  export interface SAXParser {
    onopentagstart: (tag: Tag) => void;
    onattribute: (attribute: Attribute) => void;
    onopentag: (tag: Tag) => void;
    onclosetag: (name: string) => void;
    ontext: (text: string) => void;
    oncdata: (text: string) => void;
    onerror: (error: Error) => void;
    write(text: string): SAXParser;
    close(): SAXParser;
  }

  export interface SAXOptions {
    /** Namespace processing: off here (its duplicate-attribute check is quadratic in attributes). */
    xmlns?: boolean;
    /** Line and column tracking. */
    position?: boolean;
  }

  const sax: { parser(strict: boolean, options?: SAXOptions): SAXParser };
  export default sax;
}
