// Progressive enhancement for the hosted deposit page: countdown, copy buttons and live status.
// The page is complete without it.
(function () {
  var main = document.querySelector('main');
  if (!main) return;
  // The words come from the page (deposit-page/i18n.ts), in the page's language.
  var say = function (name) {
    return main.getAttribute('data-' + name) || '';
  };
  document.querySelectorAll('button.copy').forEach(function (button) {
    button.addEventListener('click', function () {
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
  });
  var expires = document.getElementById('expires');
  var countdown = document.getElementById('countdown');
  if (expires && countdown) {
    var until = new Date(expires.getAttribute('datetime')).getTime();
    var tick = function () {
      var left = Math.max(0, Math.floor((until - Date.now()) / 1000));
      var m = Math.floor(left / 60);
      var s = left % 60;
      countdown.textContent = m + ':' + (s < 10 ? '0' : '') + s + ' ' + say('left');
      if (left === 0) location.reload();
    };
    tick();
    setInterval(tick, 1000);
  }
  var statusUrl = main.getAttribute('data-status-url');
  var initial = main.getAttribute('data-status');
  var live = document.getElementById('live');
  var poll = function () {
    fetch(statusUrl, { cache: 'no-store' })
      .then(function (res) {
        return res.ok ? res.json() : null;
      })
      .then(function (body) {
        if (!body || body.status === initial) return;
        if (live) live.textContent = body.status === 'APPROVED' ? say('live-approved') : say('live-changed');
        setTimeout(function () {
          location.reload();
        }, 800);
      })
      .catch(function () {});
  };
  setInterval(poll, 5000);
})();
