// Progressive enhancement for the hosted deposit page: copy buttons, the countdown, the "I have sent the
// transfer" post without leaving the page, and live status. The page is complete without it.
//
// Live status: every few seconds the script asks /status; when the state (or the confirmation) differs from
// what the page shows, it fetches the page itself and swaps #content in place, then says what changed in the
// live region. Every word comes from the server-rendered page (deposit-page/i18n.ts), in the page's language.
(function () {
  var main = document.querySelector('main[data-status-url]');
  if (!main || !window.fetch || !window.DOMParser) return;
  var FINAL = { APPROVED: true, REJECTED: true };
  var say = function (name) {
    return main.getAttribute('data-' + name) || '';
  };
  var content = function () {
    return document.getElementById('content');
  };
  var live = document.getElementById('live');

  // Delegated, so buttons in content swapped in later work too.
  document.addEventListener('click', function (event) {
    var button = event.target && event.target.closest ? event.target.closest('button.copy') : null;
    if (!button) return;
    var value = button.getAttribute('data-copy') || '';
    var done = function () {
      button.textContent = say('copied');
      setTimeout(function () {
        button.textContent = say('copy-label');
      }, 1500);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(value).then(done, done);
    else done();
  });

  // The countdown runs from the server's seconds-left on this device's monotonic clock: a device whose clock is
  // wrong still counts the right time. At zero it asks the server instead of guessing.
  var timer = null;
  var pad = function (n) {
    return (n < 10 ? '0' : '') + n;
  };
  var format = function (left) {
    var h = Math.floor(left / 3600);
    var m = Math.floor((left % 3600) / 60);
    var s = left % 60;
    return h > 0 ? h + ':' + pad(m) + ':' + pad(s) : m + ':' + pad(s);
  };
  var startCountdown = function () {
    clearInterval(timer);
    var countdown = document.getElementById('countdown');
    var seconds = parseInt(content().getAttribute('data-seconds-left') || '', 10);
    if (!countdown || isNaN(seconds)) return;
    var started = window.performance.now();
    var tick = function () {
      var left = Math.max(0, seconds - Math.floor((window.performance.now() - started) / 1000));
      countdown.textContent = format(left);
      if (left === 0) {
        clearInterval(timer);
        setTimeout(poll, 1000);
      }
    };
    tick();
    timer = setInterval(tick, 1000);
  };

  // Replaces #content with the one in a freshly rendered page; false when the answer is not the page.
  var swapIn = function (text) {
    var next = new window.DOMParser().parseFromString(text, 'text/html').getElementById('content');
    var current = content();
    if (!next || !current) return false;
    current.replaceWith(document.importNode(next, true));
    startCountdown();
    return true;
  };
  var refresh = function (announce) {
    return fetch(say('page-url'), { cache: 'no-store', credentials: 'same-origin' })
      .then(function (res) {
        return res.status === 200 || res.status === 410 ? res.text() : null;
      })
      .then(function (text) {
        if (text && swapIn(text) && announce && live) live.textContent = content().getAttribute('data-announce') || '';
      });
  };

  var busy = false;
  var poll = function () {
    var shown = content();
    if (busy || !shown || FINAL[shown.getAttribute('data-status')]) return;
    busy = true;
    fetch(say('status-url'), { cache: 'no-store', credentials: 'same-origin' })
      .then(function (res) {
        return res.ok ? res.json() : null;
      })
      .then(function (body) {
        if (!body) return null;
        var statusChanged = body.status !== shown.getAttribute('data-status');
        var confirmChanged = String(body.userConfirmed === true) !== shown.getAttribute('data-confirmed');
        return statusChanged || confirmChanged ? refresh(statusChanged) : null;
      })
      .catch(function () {})
      .then(function () {
        busy = false;
      });
  };

  // "I have sent the transfer" without leaving the page: the same post the form makes; fetch follows the
  // 303 back to the page, whose content comes in place. Any failure falls back to the plain form post.
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form || !form.classList) return;
    // A test deposit's "Simulate the transfer" is a plain post (the answer is the page in its new state): one press.
    if (form.classList.contains('simulate')) {
      if (form.getAttribute('data-sent') === 'true') event.preventDefault();
      form.setAttribute('data-sent', 'true');
      return;
    }
    if (!form.classList.contains('confirm')) return;
    event.preventDefault();
    var button = form.querySelector('button');
    if (button) {
      if (button.disabled) return;
      button.disabled = true;
    }
    fetch(form.action, { method: 'POST', cache: 'no-store', credentials: 'same-origin' })
      .then(function (res) {
        return res.ok || res.status === 410 ? res.text() : Promise.reject(new Error(String(res.status)));
      })
      .then(function (text) {
        if (!swapIn(text)) throw new Error('not the page');
        var confirmed = document.getElementById('confirmed');
        if (confirmed) confirmed.focus();
      })
      .catch(function () {
        form.submit();
      });
  });

  startCountdown();
  setInterval(poll, 5000);
})();
