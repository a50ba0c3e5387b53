// The booking pages work without this script; it only spares the guest some clicks:
// - the first time a booking page opens, it shows the times in the browser's own zone;
// - choosing another zone shows it at once;
// - in a frame (`?embed=1`), it tells the embedding window (only the origins the server lists in
//   `data-embed-origins`, PUBLIC_EMBED_ORIGINS) the page's height, and that a booking was made.
(function () {
  'use strict';
  var form = document.querySelector('form.zone');
  var select = form && form.querySelector('select[name="tz"]');
  if (!select) return;
  if (form.getAttribute('data-zone-chosen') !== 'true') {
    var browserZone;
    try {
      browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch (error) {
      browserZone = undefined;
    }
    var offered = browserZone && Array.prototype.some.call(select.options, function (option) {
      return option.value === browserZone;
    });
    if (offered && browserZone !== select.value) {
      var url = new URL(window.location.href);
      url.searchParams.set('tz', browserZone);
      window.location.replace(url.toString());
      return;
    }
  }
  select.addEventListener('change', function () {
    form.submit();
  });
})();

(function () {
  'use strict';
  var body = document.body;
  var origins = (body.getAttribute('data-embed-origins') || '').split(' ').filter(Boolean);
  if (window.parent === window || origins.length === 0) return;
  // A message posted to an origin the parent is not at is dropped by the browser, so naming each
  // listed origin reaches the embedding site and no one else.
  function tell(message) {
    origins.forEach(function (origin) {
      window.parent.postMessage(message, origin);
    });
  }
  var message = body.getAttribute('data-embed-message');
  if (message) tell(JSON.parse(message));
  var height = 0;
  function tellHeight() {
    // The content's height, not the frame's: the parent can then shrink the frame as well as grow it.
    var now = Math.ceil(body.getBoundingClientRect().height);
    if (now === height) return;
    height = now;
    tell({ type: 'slotwise.page.height', height: now });
  }
  tellHeight();
  if (typeof ResizeObserver === 'function') new ResizeObserver(tellHeight).observe(body);
})();
