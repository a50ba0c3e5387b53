import type { PublicProfile } from '../../app/booking-pages.js';
import { shownName } from '../../app/booking-pages.js';
import { MESSAGES, type Locale } from './messages.js';

export function HolderPage(props: { profile: PublicProfile; locale: Locale; root: string }) {
  const m = MESSAGES[props.locale];
  const { holder, eventTypes } = props.profile;
  return (
    <>
      <h1>{m.bookWith(shownName(holder))}</h1>
      <ul class="event-types">
        {eventTypes.map((eventType) => (
          <li key={eventType.id}>
            <a href={`${props.root}/book/${holder.handle}/${eventType.slug}`}>
              <span class="title">{eventType.title}</span>
              <span class="duration">{m.minutes(eventType.durationMinutes)}</span>
            </a>
            {eventType.description && <p class="description">{eventType.description}</p>}
          </li>
        ))}
      </ul>
    </>
  );
}

export function NotFoundPage(props: { locale: Locale }) {
  const m = MESSAGES[props.locale];
  return (
    <>
      <h1>{m.notFoundTitle}</h1>
      <p>{m.notFoundText}</p>
    </>
  );
}
