// Progressive enhancement for the operator console; every page and form works without it.
// Served from /assets/console.js under script-src 'self' (no inline script anywhere).
(function () {
  // Confirm before a decision that moves money or changes access; the server still checks everything.
  document.querySelectorAll('form[data-confirm]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      if (!window.confirm(form.getAttribute('data-confirm') || 'Are you sure?')) {
        event.preventDefault();
        return;
      }
      // One click, one request: a double-submitted decision would only come back as a conflict.
      form.querySelectorAll('button[type=submit]').forEach(function (button) {
        button.disabled = true;
      });
    });
  });
  // Click-to-copy for the payout IBAN and a freshly issued API key.
  document.querySelectorAll('[data-copy]').forEach(function (element) {
    element.classList.add('copyable');
    element.setAttribute('title', 'Click to copy');
    element.addEventListener('click', function () {
      var value = element.getAttribute('data-copy') || '';
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(value).then(
          function () {
            element.classList.add('copied');
            setTimeout(function () {
              element.classList.remove('copied');
            }, 1200);
          },
          function () {},
        );
      }
    });
  });
})();
