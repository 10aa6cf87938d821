// Progressive enhancement for the operator console; every page and form works without it.
// Served from /assets/console.js under script-src 'self' (no inline script anywhere).
(function () {
  // The page's words in its language (messages/client.ts): a JSON block the layout writes on operator pages.
  var messageBlock = document.getElementById('console-messages');
  var messages = messageBlock ? JSON.parse(messageBlock.textContent) : {};

  /** The message `key` with its `{name}` placeholders filled in, as the server's t() does. */
  function t(key, params) {
    var text = Object.prototype.hasOwnProperty.call(messages, key) ? messages[key] : key;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  }

  var confirmDialog = document.getElementById('confirm-dialog');
  var helpDialog = document.getElementById('shortcut-help');

  // On a phone the sections scroll sideways: bring the current one into view instead of leaving it past the cut.
  // Only the navigation scrolls (scrollIntoView would move the page too, away from a #section it opened on).
  var currentSection = document.querySelector('header.top nav a.current');
  if (currentSection) {
    var sections = currentSection.parentElement;
    var link = currentSection.getBoundingClientRect();
    var strip = sections.getBoundingClientRect();
    // 48 px: the faded edge (console.css); a section shown whole already is left where it is.
    if (link.left < strip.left + 48 || link.right > strip.right - 48)
      sections.scrollLeft += link.left + link.width / 2 - (strip.left + strip.width / 2);
  }

  /** Disables a form's buttons once it is sent: a double-submitted decision would only come back as a conflict. */
  function lock(form) {
    form.querySelectorAll('button[type=submit]').forEach(function (button) {
      button.disabled = true;
    });
  }

  /** Sends a form the operator already confirmed, through the browser's own checks (a reject needs its reason). */
  function submitConfirmed(form) {
    form.setAttribute('data-confirmed', 'yes');
    if (typeof form.requestSubmit === 'function') form.requestSubmit();
    else form.submit();
    // A form the browser refused to send (an empty required field) must ask again next time.
    setTimeout(function () {
      form.removeAttribute('data-confirmed');
    }, 0);
  }

  // What the open question does with its answer. The dialog's close event is a task queued after it closes: one
  // closed by Esc and asked again at once (a second key) must not take the new question's answer with it, so a close
  // that finds the dialog open again is the old one's, and only the question being asked is answered.
  var pendingAnswer = null;
  if (confirmDialog) {
    confirmDialog.addEventListener('close', function () {
      if (confirmDialog.open || !pendingAnswer) return;
      var answer = pendingAnswer;
      pendingAnswer = null;
      answer(confirmDialog.returnValue === 'confirm');
    });
  }

  /**
   * Asks in the page's own dialog (keyboard actions and bulk approval): focus starts on Confirm, so Enter confirms
   * and Esc cancels; the dialog is modal, so the page behind it cannot be reached until it is answered.
   */
  function askInPage(message, onConfirm) {
    if (!confirmDialog || typeof confirmDialog.showModal !== 'function') {
      if (window.confirm(message)) onConfirm();
      return;
    }
    var opener = document.activeElement;
    document.getElementById('confirm-dialog-message').textContent = message;
    confirmDialog.returnValue = '';
    pendingAnswer = function (confirmed) {
      if (confirmed) onConfirm();
      else if (opener && typeof opener.focus === 'function') opener.focus();
    };
    confirmDialog.showModal();
    confirmDialog.querySelector('[data-confirm-yes]').focus();
  }

  // Confirm before a decision that moves money or changes access; the server still checks everything. A click asks
  // in the browser's dialog; a form a shortcut started (data-kb) asks in the page's, which the keyboard answers.
  document.querySelectorAll('form[data-confirm]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      if (form.getAttribute('data-confirmed') === 'yes') {
        lock(form);
        return;
      }
      var message = form.getAttribute('data-confirm') || t('client.confirm.default');
      if (form.getAttribute('data-kb') === 'yes') {
        event.preventDefault();
        askInPage(message, function () {
          submitConfirmed(form);
        });
        return;
      }
      if (!window.confirm(message)) {
        event.preventDefault();
        return;
      }
      lock(form);
    });
  });

  // Click-to-copy for the payout IBAN and a freshly issued API key.
  document.querySelectorAll('[data-copy]').forEach(function (element) {
    element.classList.add('copyable');
    element.setAttribute('title', t('client.copy'));
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

  /** 150000 -> "1.500,00 ₺", as the pages write money (@kasa/money formatTry), on BigInt: never a float. */
  function formatTry(minor) {
    var value = BigInt(minor);
    var lira = (value / BigInt(100)).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
    return lira + ',' + (value % BigInt(100)).toString().padStart(2, '0') + ' ₺';
  }

  // Bulk approval on the review queue: checkboxes on exact matches, "select all", one confirm with count and total.
  var bulkForm = document.querySelector('form[data-bulk-form]');
  function bulkBoxes() {
    return Array.prototype.slice.call(document.querySelectorAll('input.bulk-select'));
  }
  function refreshBulk() {
    if (!bulkForm) return;
    var boxes = bulkBoxes();
    var chosen = boxes.filter(function (box) {
      return box.checked;
    }).length;
    var submit = bulkForm.querySelector('[data-bulk-submit]');
    submit.textContent = t('client.bulk.submit', { count: chosen });
    submit.disabled = chosen === 0;
    var all = bulkForm.querySelector('[data-select-exact]');
    all.checked = chosen > 0 && chosen === boxes.length;
    all.indeterminate = chosen > 0 && chosen < boxes.length;
  }
  if (bulkForm) {
    bulkForm.querySelectorAll('[data-js-only]').forEach(function (element) {
      element.hidden = false;
    });
    bulkForm.querySelector('[data-select-exact]').addEventListener('change', function (event) {
      bulkBoxes().forEach(function (box) {
        box.checked = event.target.checked;
      });
      refreshBulk();
    });
    document.addEventListener('change', function (event) {
      if (event.target.classList && event.target.classList.contains('bulk-select')) refreshBulk();
    });
    bulkForm.addEventListener('submit', function (event) {
      if (bulkForm.getAttribute('data-confirmed') === 'yes') {
        lock(bulkForm);
        return;
      }
      event.preventDefault();
      var chosen = bulkBoxes().filter(function (box) {
        return box.checked;
      });
      if (chosen.length === 0) return;
      var total = chosen.reduce(function (sum, box) {
        return sum + BigInt(box.getAttribute('data-amount'));
      }, BigInt(0));
      var question = chosen.length === 1 ? 'client.bulk.confirm.one' : 'client.bulk.confirm.many';
      askInPage(t(question, { count: chosen.length, total: formatTry(total) }), function () {
        submitConfirmed(bulkForm);
      });
    });
    refreshBulk();
  }

  // Keyboard: move through a list's rows, open, approve, reject, select, search, jump; `?` lists the keys.
  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll('main table.list tbody tr[data-id]'));
  }
  function currentRow() {
    var active = document.activeElement;
    return active && active.closest ? active.closest('main tr[data-id]') : null;
  }
  function moveTo(step) {
    var list = rows();
    if (list.length === 0) return;
    var at = list.indexOf(currentRow());
    var next = list[at < 0 ? (step > 0 ? 0 : list.length - 1) : Math.min(list.length - 1, Math.max(0, at + step))];
    list.forEach(function (row) {
      row.classList.remove('kb-current');
    });
    next.classList.add('kb-current');
    next.setAttribute('tabindex', '-1');
    next.focus();
    next.scrollIntoView({ block: 'nearest' });
  }
  function rowForm(row, action) {
    return row ? row.querySelector('form[action$="/' + action + '"]') : null;
  }
  function typing(target) {
    if (!target || !target.tagName) return false;
    var tag = target.tagName;
    if (tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable) return true;
    return tag === 'INPUT' && ['checkbox', 'radio', 'button', 'submit', 'reset'].indexOf(target.type) < 0;
  }
  function toggleHelp() {
    if (!helpDialog) return;
    if (helpDialog.open) helpDialog.close();
    else helpDialog.showModal();
  }
  var pendingG = 0;
  document.addEventListener('keydown', function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === '?' && helpDialog && helpDialog.open) {
      event.preventDefault();
      helpDialog.close();
      return;
    }
    // An open dialog answers its own keys (Enter, Esc, Tab); a field takes what is typed.
    if (document.querySelector('dialog[open]') || typing(event.target)) return;
    var row = currentRow();
    var key = event.key;
    if (pendingG && Date.now() - pendingG < 1500 && (key === 'd' || key === 'q')) {
      pendingG = 0;
      event.preventDefault();
      location.href = key === 'd' ? '/' : '/review';
      return;
    }
    pendingG = 0;
    // Enter on a link or button keeps its own meaning.
    var tag = event.target && event.target.tagName;
    if (key === 'Enter' && (tag === 'A' || tag === 'BUTTON')) return;
    var onRowsOrPage = row || event.target === document.body;
    if (key === 'j' || (key === 'ArrowDown' && onRowsOrPage && rows().length)) {
      event.preventDefault();
      moveTo(1);
    } else if (key === 'k' || (key === 'ArrowUp' && onRowsOrPage && rows().length)) {
      event.preventDefault();
      moveTo(-1);
    } else if ((key === 'Enter' || key === 'o') && row) {
      var link = row.querySelector('a[href]');
      if (link) {
        event.preventDefault();
        location.href = link.href;
      }
    } else if (key === 'a' && rowForm(row, 'approve')) {
      event.preventDefault();
      var approve = rowForm(row, 'approve');
      askInPage(approve.getAttribute('data-confirm') || t('client.confirm.approve'), function () {
        submitConfirmed(approve);
      });
    } else if (key === 'r' && rowForm(row, 'reject')) {
      event.preventDefault();
      var reject = rowForm(row, 'reject');
      reject.setAttribute('data-kb', 'yes');
      var reason = reject.querySelector('input[name=reason]');
      if (reason) reason.focus();
    } else if (key === 'x' && row && row.querySelector('input.bulk-select')) {
      event.preventDefault();
      var box = row.querySelector('input.bulk-select');
      box.checked = !box.checked;
      refreshBulk();
    } else if (key === '/') {
      var search = document.querySelector('header input[type=search]');
      if (search) {
        event.preventDefault();
        search.focus();
        search.select();
      }
    } else if (key === 'g') {
      pendingG = Date.now();
    } else if (key === '?') {
      event.preventDefault();
      toggleHelp();
    }
  });

  // Live counts: polled every 5 s while the tab is visible; the nav, the dashboard, the title and the queue's bar
  // follow them in place (rows under the operator's cursor never move), and a polite live region says what changed.
  var announce = document.querySelector('[data-live-announce]');
  if (!announce) return;
  var baseTitle = document.title;
  var lastReview = null;
  var failures = 0;
  var rendered = {};
  document.querySelectorAll('main [data-live-count]').forEach(function (element) {
    rendered[element.getAttribute('data-live-count')] = Number(element.textContent);
  });
  /** The `.one` or `.many` form of a message about `count` things. */
  function counted(key, count, params) {
    var all = { count: count };
    Object.keys(params || {}).forEach(function (name) {
      all[name] = params[name];
    });
    return t(key + (count === 1 ? '.one' : '.many'), all);
  }
  function applyQueue(key, count) {
    var element = document.querySelector('main [data-live-count="' + key + '"]');
    if (!element || String(count) === element.firstChild.textContent) return;
    element.firstChild.textContent = String(count);
    var card = element.closest('[data-live-queue]');
    var delta = count - rendered[key];
    var mark = element.querySelector('.delta');
    if (!mark) {
      mark = document.createElement('span');
      mark.className = 'badge info delta';
      element.appendChild(mark);
    }
    mark.hidden = delta === 0;
    mark.textContent = t('client.live.delta', { delta: (delta > 0 ? '+' : '') + delta });
    var nothing = card ? card.querySelector('.oldest.muted') : null;
    if (nothing && count > 0) nothing.textContent = t('client.live.arrived');
    if (card) {
      card.classList.remove('clear', 'busy');
      if (count === 0) card.classList.remove('alert');
      if (count === 0) card.classList.add('clear');
      else if (!card.classList.contains('alert')) card.classList.add(card.getAttribute('data-fault') === 'yes' ? 'alert' : 'busy');
    }
  }
  function apply(counts) {
    var nav = document.querySelector('[data-live-count="review"]');
    if (nav) {
      nav.textContent = String(counts.review);
      nav.hidden = counts.review === 0;
    }
    document.title = (counts.review > 0 ? '(' + counts.review + ') ' : '') + baseTitle;
    Object.keys(counts.queues).forEach(function (key) {
      applyQueue(key, counts.queues[key]);
    });
    var asOf = document.querySelector('[data-live-asof]');
    if (asOf) {
      asOf.textContent = counts.asOf;
      asOf.setAttribute('datetime', counts.generatedAt);
    }
    var bar = document.querySelector('[data-live-bar]');
    var change = bar ? counts.review - Number(bar.getAttribute('data-live-baseline')) : 0;
    if (bar) {
      bar.hidden = change === 0;
      bar.querySelector('[data-live-new-text]').textContent =
        change > 0 ? counted('client.live.new', change) : counted('client.live.fewer', -change);
    }
    if (lastReview !== null && counts.review !== lastReview) {
      announce.textContent =
        change > 0 ? counted('client.live.waitingNew', counts.review, { added: change }) : counted('client.live.waiting', counts.review);
    }
    lastReview = counts.review;
  }
  function poll() {
    if (document.visibilityState !== 'visible' || failures >= 3) return;
    // A redirect means the session ended (the login page): stop asking, as after three failures in a row.
    fetch('/live/counts', { credentials: 'same-origin', redirect: 'error', headers: { Accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) throw new Error('live counts: ' + response.status);
        return response.json();
      })
      .then(
        function (counts) {
          failures = 0;
          apply(counts);
        },
        function () {
          failures += 1;
        },
      );
  }
  setInterval(poll, 5000);
  document.addEventListener('visibilitychange', poll);
  poll();
})();
