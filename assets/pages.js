// The booking pages work without this script; it only spares the guest some clicks:
// - the first time a booking page opens, it shows the times in the browser's own zone;
// - choosing another zone shows it at once.
(function () {
  'use strict';
  var form = document.querySelector('form.zone');
  if (!form) return;
  var select = form.querySelector('select[name="tz"]');
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
