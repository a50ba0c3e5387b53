// Multistatus answers for CalDAV tests served by the local calendar host (calendar-server.ts,
// route kind `dav`): a well-formed calendar collection, and the hostile answers of issue 25
// (finding 2) whose parse by tsdav took the event loop for seconds: a PROPFIND answer of one
// <prop> with thousands of distinct children, a calendar-query REPORT answer of one response with
// thousands of propstats.
const NAMESPACES = 'xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"';
const OK = '<d:status>HTTP/1.1 200 OK</d:status>';
const CALENDAR_TYPE = '<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>';

/** A PROPFIND answer for the calendar collection at `href`, with CTag `ctag` and, when given, `extraProps`. */
export function calendarPropfind(href: string, ctag = '1', extraProps = ''): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?><d:multistatus ${NAMESPACES}><d:response><d:href>${href}</d:href>` +
    `<d:propstat><d:prop>${CALENDAR_TYPE}<cs:getctag>${ctag}</cs:getctag>${extraProps}</d:prop>${OK}</d:propstat>` +
    '</d:response></d:multistatus>'
  );
}

/** A calendar-query REPORT answer with one response per object: `[href, calendar text]`. */
export function calendarReport(objects: Array<[string, string]>): string {
  const responses = objects.map(
    ([href, text]) =>
      `<d:response><d:href>${href}</d:href><d:propstat><d:prop><d:getetag>"${href.length}"</d:getetag>` +
      `<c:calendar-data>${escapeXml(text)}</c:calendar-data></d:prop>${OK}</d:propstat></d:response>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?><d:multistatus ${NAMESPACES}>${responses.join('')}</d:multistatus>`;
}

/** `count` distinct elements with a text each (`<d:p0>v</d:p0>…`): the children of one <prop>. */
function distinctProps(count: number): string {
  return Array.from({ length: count }, (_, i) => `<d:p${i}>v</d:p${i}>`).join('');
}

/** The hostile PROPFIND answer: a calendar collection whose one <prop> has `count` distinct children more. */
export function hostilePropfind(href: string, count: number): string {
  return calendarPropfind(href, '1', distinctProps(count));
}

/** The hostile REPORT answer: one response with `count` propstats, each with a distinct property. */
export function hostileReport(count: number): string {
  const propstats = Array.from(
    { length: count },
    (_, i) => `<d:propstat><d:prop><d:p${i}>v</d:p${i}></d:prop>${OK}</d:propstat>`,
  ).join('');
  return (
    `<?xml version="1.0" encoding="utf-8"?><d:multistatus ${NAMESPACES}>` +
    `<d:response><d:href>/dav/x.ics</d:href>${propstats}</d:response></d:multistatus>`
  );
}

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
