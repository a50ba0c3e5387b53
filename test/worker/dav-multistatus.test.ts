// The multistatus reader of CalDAV answers (src/worker/dav-multistatus.ts): what it keeps of a
// well-formed answer (namespaces resolved, statuses honoured, CDATA and entities), what it refuses
// (another root, XML that is not well-formed), its caps with their messages, and that it reads in
// slices: the event loop turns between them and an aborted signal ends the read.
import { describe, expect, it } from 'vitest';
import {
  MultistatusLimitExceeded,
  qualified,
  readMultistatus,
  SLICE_BYTES,
  type MultistatusLimits,
} from '../../src/worker/dav-multistatus.js';
import { calendarReport, hostilePropfind, hostileReport } from '../support/hostile-dav.js';

const CALDAV = 'urn:ietf:params:xml:ns:caldav';
const GETCTAG = qualified('http://calendarserver.org/ns/', 'getctag');
const RESOURCETYPE = qualified('DAV:', 'resourcetype');
const CALENDAR_DATA = qualified(CALDAV, 'calendar-data');
const WANTED = new Set([GETCTAG, RESOURCETYPE, CALENDAR_DATA]);
const ROOMY: MultistatusLimits = {
  maxElements: 1_000_000,
  maxElementsPerResponse: 1_000_000,
  maxDepth: 32,
  maxAttributes: 32,
};

function read(xml: string, limits: Partial<MultistatusLimits> = {}, signal = new AbortController().signal) {
  return readMultistatus(Buffer.from(xml, 'utf8'), WANTED, { ...ROOMY, ...limits }, signal);
}

async function refusal(xml: string, limits: Partial<MultistatusLimits>): Promise<string> {
  const error = await read(xml, limits).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MultistatusLimitExceeded);
  return (error as Error).message;
}

describe('readMultistatus: what a well-formed answer gives', () => {
  it('when a PROPFIND answer describes a calendar, then its href, CTag and resourcetype children come back', async () => {
    const [self, ...rest] = (await read(hostilePropfind('/dav/alice/work/', 3)))!;
    expect(rest).toEqual([]);
    expect(self!.href).toBe('/dav/alice/work/');
    expect(self!.ok).toBe(true);
    expect(self!.props.get(GETCTAG)).toEqual({ text: '1', children: [] });
    expect(self!.props.get(RESOURCETYPE)!.children).toEqual([
      qualified('DAV:', 'collection'),
      qualified(CALDAV, 'calendar'),
    ]);
    // Properties nobody asked for are not kept.
    expect([...self!.props.keys()].sort()).toEqual([GETCTAG, RESOURCETYPE].sort());
  });

  it('when names use a default namespace or other prefixes, then they are matched by namespace, not by prefix', async () => {
    const xml = `<multistatus xmlns="DAV:"><response><href>/a.ics</href><propstat><prop>
      <x:calendar-data xmlns:x="${CALDAV}">BEGIN:VCALENDAR</x:calendar-data>
      <getctag>not the calendarserver one</getctag></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>`;
    const [object] = (await read(xml))!;
    expect(object!.props.get(CALENDAR_DATA)!.text).toBe('BEGIN:VCALENDAR');
    expect(object!.props.has(GETCTAG)).toBe(false);
  });

  it('when calendar data comes as CDATA or with entities, then the text is the calendar as written, trimmed', async () => {
    const text = 'BEGIN:VCALENDAR\r\nSUMMARY:Tom & Jerry <3\r\nEND:VCALENDAR';
    const escaped = calendarReport([['/e.ics', text]]);
    const cdata = escaped.replace(
      /<c:calendar-data>[\s\S]*<\/c:calendar-data>/,
      `<c:calendar-data>\n<![CDATA[${text}]]>\n</c:calendar-data>`,
    );
    expect((await read(escaped))![0]!.props.get(CALENDAR_DATA)!.text).toBe(text);
    expect((await read(cdata))![0]!.props.get(CALENDAR_DATA)!.text).toBe(text);
  });

  it('when a response or a propstat has an error status, then the response is not ok or the propstat is left out', async () => {
    const xml = `<d:multistatus xmlns:d="DAV:" xmlns:c="${CALDAV}">
      <d:response><d:href>/gone.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
      <d:response><d:href>/half.ics</d:href>
        <d:propstat><d:prop><c:calendar-data>BEGIN:VCALENDAR</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
        <d:propstat><d:prop><d:resourcetype/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
      </d:response></d:multistatus>`;
    const [gone, half] = (await read(xml))!;
    expect(gone).toMatchObject({ href: '/gone.ics', ok: false });
    expect(half!.ok).toBe(true);
    expect([...half!.props.keys()]).toEqual([CALENDAR_DATA]);
  });

  it('when a multi-byte character straddles two slices, then it is read whole', async () => {
    const before = calendarReport([['/e.ics', 'BEGIN:VCALENDAR']]);
    const at = before.indexOf('BEGIN:VCALENDAR');
    // Pad so that "é" (two bytes in UTF-8) starts on the last byte of the first slice.
    const padding = 'x'.repeat(SLICE_BYTES - 1 - Buffer.byteLength(before.slice(0, at)));
    const text = `${padding}é BEGIN:VCALENDAR`;
    const xml = calendarReport([['/e.ics', text]]);
    expect(
      Buffer.from(xml)
        .subarray(SLICE_BYTES - 1, SLICE_BYTES + 1)
        .toString(),
    ).toBe('é');
    expect((await read(xml))![0]!.props.get(CALENDAR_DATA)!.text).toBe(text);
  });
});

describe('readMultistatus: what is not a multistatus', () => {
  it.each([
    ['a web page', '<html><body>hello</body></html>'],
    ['another DAV root', '<d:prop xmlns:d="DAV:"/>'],
    ['a multistatus in another namespace', '<multistatus><response/></multistatus>'],
    ['an unbound prefix', '<d:multistatus xmlns:d="DAV:"><x:response/></d:multistatus>'],
    ['XML that is not well-formed', '<d:multistatus xmlns:d="DAV:"><d:response></d:multistatus>'],
    ['an unclosed document', '<d:multistatus xmlns:d="DAV:"><d:response>'],
    ['an entity from a DTD', '<!DOCTYPE m [<!ENTITY e "x">]><d:multistatus xmlns:d="DAV:">&e;</d:multistatus>'],
    ['nothing', ''],
  ])('when the body is %s, then the answer is null', async (_, xml) => {
    expect(await read(xml)).toBeNull();
  });
});

describe('readMultistatus: the caps', () => {
  it('when the answer has more elements than maxElements, then the read stops with that message', async () => {
    const objects = Array.from({ length: 200 }, (_, i): [string, string] => [`/e${i}.ics`, 'BEGIN:VCALENDAR']);
    // 1 multistatus + 7 elements a response.
    expect(await read(calendarReport(objects), { maxElements: 1_401 })).toHaveLength(200);
    expect(await refusal(calendarReport(objects), { maxElements: 1_400 })).toBe(
      "the CalDAV server's answer has more than 1400 XML elements",
    );
  });

  it('when one response has more elements than maxElementsPerResponse, then the read stops with that message', async () => {
    expect(await refusal(hostileReport(100), { maxElementsPerResponse: 256 })).toBe(
      "the CalDAV server's answer has a response with more than 256 XML elements",
    );
    expect(await refusal(hostilePropfind('/dav/', 300), { maxElementsPerResponse: 256 })).toBe(
      "the CalDAV server's answer has a response with more than 256 XML elements",
    );
  });

  it('when elements nest deeper than maxDepth, then the read stops with that message', async () => {
    const deep = `<d:multistatus xmlns:d="DAV:">${'<a>'.repeat(40)}${'</a>'.repeat(40)}</d:multistatus>`;
    expect(await refusal(deep, { maxDepth: 32 })).toBe(
      "the CalDAV server's answer nests XML elements more than 32 deep",
    );
  });

  it('when one element has more attributes than maxAttributes, then the read stops with that message', async () => {
    const attributes = Array.from({ length: 33 }, (_, i) => `a${i}="v"`).join(' ');
    expect(
      await refusal(`<d:multistatus xmlns:d="DAV:"><x ${attributes}/></d:multistatus>`, { maxAttributes: 32 }),
    ).toBe("the CalDAV server's answer has an XML element with more than 32 attributes");
  });
});

describe('readMultistatus: slices', () => {
  it('when a large answer is read, then the event loop turns between slices', async () => {
    const xml = hostilePropfind('/dav/', 40_000);
    expect(Buffer.byteLength(xml)).toBeGreaterThan(10 * SLICE_BYTES);
    let turns = 0;
    const tick = setInterval(() => turns++, 0);
    try {
      expect(await read(xml)).toHaveLength(1);
    } finally {
      clearInterval(tick);
    }
    expect(turns).toBeGreaterThan(0);
  });

  it('when the signal aborts during the read, then the read ends after the slice under way with its reason', async () => {
    const controller = new AbortController();
    const reading = read(hostilePropfind('/dav/', 40_000), {}, controller.signal);
    const deadline = new Error('the deadline');
    controller.abort(deadline);
    await expect(reading).rejects.toBe(deadline);
  });
});
