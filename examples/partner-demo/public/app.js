// The partner page: the popup pattern of the Kasa SPEC, and a balance that follows the webhooks.
(function () {
  var balance = document.getElementById('balance');
  var status = document.getElementById('status');
  var lira = function (kurus) {
    var digits = String(kurus).padStart(3, '0');
    var whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
    return whole + ',' + digits.slice(-2) + ' ₺';
  };
  var refresh = function () {
    fetch('/api/balance', { cache: 'no-store' })
      .then(function (res) {
        return res.json();
      })
      .then(function (body) {
        balance.textContent = lira(body.balance);
      })
      .catch(function () {});
  };
  document.querySelectorAll('button.deposit').forEach(function (button) {
    button.addEventListener('click', function () {
      // Opened in the click handler itself, before any await: browsers block popups opened later.
      window.kasaPopup = window.open('about:blank', 'kasa-deposit', 'width=440,height=820');
      status.textContent = 'Creating the deposit…';
      fetch('/api/deposits', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: button.getAttribute('data-amount') }),
      })
        .then(function (res) {
          return res.json().then(function (body) {
            if (!res.ok) throw new Error(body.error || 'failed');
            return body;
          });
        })
        .then(function (body) {
          if (window.kasaPopup && !window.kasaPopup.closed) window.kasaPopup.location.href = body.depositUrl;
          else window.location.href = body.depositUrl;
          status.textContent = 'Pay with the reference ' + body.referenceNo + ' in the window that opened.';
        })
        .catch(function (error) {
          if (window.kasaPopup) window.kasaPopup.close();
          status.textContent = 'Could not start the deposit: ' + error.message;
        });
    });
  });
  refresh();
  setInterval(refresh, 2000);
})();
