/*
 * Push alerts in the CRM's service worker (issue 25; docs/decisions/030-push-alerts-and-reminders.md).
 * Pulled in by the main service worker with importScripts('/crm-sw-push.js'). A push's payload
 * is JSON from features/push/worker.server.ts: { title, body, url, tag }; url is a path on this
 * site. Tapping the notification focuses a CRM tab already on that page, or opens it. Only
 * same-origin URLs are ever opened.
 */
/* global self */
(function () {
  "use strict";

  function sameOriginUrl(value) {
    try {
      var url = new URL(value || "/crm", self.location.origin);
      return url.origin === self.location.origin ? url.href : self.location.origin + "/crm";
    } catch {
      return self.location.origin + "/crm";
    }
  }

  self.addEventListener("push", function (event) {
    var data = {};
    try {
      data = event.data ? event.data.json() : {};
    } catch {
      data = {};
    }
    var title = typeof data.title === "string" && data.title ? data.title : "CRM";
    var options = {
      body: typeof data.body === "string" ? data.body : "",
      tag: typeof data.tag === "string" ? data.tag : undefined,
      icon: "/icons/app-192.png",
      badge: "/apple-touch-icon.png",
      lang: "pt-BR",
      data: { url: sameOriginUrl(data.url) },
    };
    event.waitUntil(self.registration.showNotification(title, options));
  });

  self.addEventListener("notificationclick", function (event) {
    event.notification.close();
    var target = sameOriginUrl(event.notification.data && event.notification.data.url);
    event.waitUntil(
      self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
        for (var i = 0; i < windows.length; i++) {
          var client = windows[i];
          if (client.url === target && "focus" in client) return client.focus();
        }
        for (var j = 0; j < windows.length; j++) {
          var other = windows[j];
          if (new URL(other.url).pathname.indexOf("/crm") === 0 && "navigate" in other) {
            // navigate() works only on a tab this worker controls: otherwise a new window.
            return other
              .navigate(target)
              .then(function (navigated) {
                return navigated ? navigated.focus() : self.clients.openWindow(target);
              })
              .catch(function () {
                return self.clients.openWindow(target);
              });
          }
        }
        return self.clients.openWindow(target);
      }),
    );
  });
})();
