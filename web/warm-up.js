// Loaded beside the app's script and run while that is still on its way (a phone's line needs
// about a second for it; docs/decisions/first-load-on-a-phone.md, "While the app's script loads").
// A classic script of its own, not part of the app: nothing here may depend on the app's code.
/* global __FIRST_SCREENS__ -- written in by the build (vite.config.ts, warmUp) */
(function () {
  // The first screen's script files (the build writes them in, vite.config.ts: warmUp), asked for
  // once the splash is painted: the router finds them loaded or on their way instead of asking
  // only after the app's script has arrived and run.
  try {
    var screens = __FIRST_SCREENS__;
    var token = localStorage.getItem('token');
    var last = token ? JSON.parse(localStorage.getItem('lastUser') || 'null') : null;
    var role = last && last.tokenTail === token.slice(-12) && last.user && last.user.role ? last.user.role.name : null;
    var files = null;
    for (var i = 0; i < screens.length && token; i++) {
      if (new RegExp(screens[i].path).test(location.pathname) && (!screens[i].role || screens[i].role === role)) {
        files = screens[i].files;
        break;
      }
    }
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
    // Storage refused (a private window): the router asks for the files as ever.
  }
  // The page's first date formatter loads ICU's data, 25-45 ms of a slow phone's CPU in one task
  // that no screen with a date can do without: done here, the app's start finds it loaded.
  try {
    new Intl.DateTimeFormat('de', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(0);
    performance.mark('icu-warm');
  } catch {
    // A browser without Intl: the app's start loads what it has.
  }
})();
