// Loaded beside the app's script and run while that is still on its way (a phone's line needs
// about a second for it; docs/decisions/first-load-on-a-phone.md, "While the app's script loads").
// A classic script of its own, not part of the app: nothing here may depend on the app's code.
/* global __FIRST_SCREENS__ -- written in by the build (vite.config.ts, warmUp) */
(function () {
  // The first screen's script files and reads (the build writes them in, vite.config.ts: warmUp).
  // The reads go at once, with the stored token, for the app's `api()` to take over
  // (web/lib/warm-reads.ts); the files once the splash is painted: the router finds them loaded or
  // on their way instead of asking only after the app's script has arrived and run.
  try {
    var screens = __FIRST_SCREENS__;
    // The app's script ran first (a fast line): it asks for its screen itself.
    var token = window.__appStarted ? null : localStorage.getItem('token');
    var last = token ? JSON.parse(localStorage.getItem('lastUser') || 'null') : null;
    var role = last && last.tokenTail === token.slice(-12) && last.user && last.user.role ? last.user.role.name : null;
    var screen = null;
    var found = null;
    for (var i = 0; i < screens.length && token; i++) {
      found = new RegExp(screens[i].path).exec(location.pathname);
      if (found && (!screens[i].role || screens[i].role === role)) {
        screen = screens[i];
        break;
      }
    }
    if (screen && screen.reads) {
      // The app's language as web/lib/i18n.ts finds it: the stored choice, else the browser's.
      var stored = localStorage.getItem('language');
      var lang = stored === 'de' || stored === 'tr' ? stored : null;
      var preferred = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ''];
      for (var p = 0; p < preferred.length && !lang; p++) {
        var primary = String(preferred[p]).toLowerCase().split(/[-_]/)[0];
        if (primary === 'de' || primary === 'tr') lang = primary;
      }
      lang = lang || 'de';
      var warm = new Map();
      window.__warmReads = warm;
      var reads = screen.reads;
      var path = found[1];
      // One read per task, the screen's own first: a phone's CPU turns each into a task under
      // 50 ms where all of them in one blocked the page (docs/decisions/first-load-on-a-phone.md).
      // The app's script may run in between: from then on it asks for itself.
      var next = function (r) {
        if (r >= reads.length || window.__appStarted) return;
        var url = reads[r].replace(/\$1/g, path).replace('$lang', lang);
        var response = fetch(url, { headers: { Accept: 'application/json', 'Accept-Language': lang, Authorization: 'Bearer ' + token } });
        // Not taken over (another language, a changed token): nobody waits for it.
        response.catch(function () {});
        warm.set(url, { token: token, lang: lang, at: performance.now(), response: response });
        setTimeout(next, 0, r + 1);
      };
      next(0);
    }
    var files = screen && screen.files;
    if (files && files.length) {
      requestAnimationFrame(function () {
        setTimeout(function () {
          for (var j = 0; j < files.length; j++) {
            var link = document.createElement('link');
            link.rel = 'modulepreload';
            link.crossOrigin = '';
            link.href = '/' + files[j];
            document.head.appendChild(link);
          }
        }, 0);
      });
    }
  } catch {
    // Storage refused (a private window): the router asks for the files and reads as ever.
  }
  // The page's first date formatter loads ICU's data, 40-100 ms of a phone's CPU in one call that no
  // screen with a date can do without. A worker of its own loads it on another thread, into the
  // process's caches, and the app's start finds it there; started in a task after the reads
  // (docs/decisions/first-load-on-a-phone.md, "ICU off the main thread"). Without workers, the
  // formatter runs in that task.
  setTimeout(function () {
    try {
      new Worker('/icu-warm.js');
    } catch {
      try {
        new Intl.DateTimeFormat('de-DE', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(0);
      } catch {
        // A browser without Intl: the app's start loads what it has.
      }
    }
    performance.mark('icu-warm');
  }, 0);
})();
