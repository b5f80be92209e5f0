/*
 * Search on demand. Material for MkDocs starts its search worker and requests the search
 * index as soon as a page loads, though most readers never search: the index alone is most
 * of a first visit. This script, loaded before Material's bundle (extra.polyfills in
 * mkdocs.yml), lets both wait until the reader opens or focuses the search box, then lets
 * them through unchanged. Material's own code runs as it is; only the moment changes.
 *
 * Over file:// (the offline edition) the index is a local script and nothing travels over a
 * network, so this does nothing there.
 */
(function () {
  "use strict";
  if (location.protocol === "file:") return;

  var INDEX = /\/search\/search_index\.json(?:[?#]|$)/;
  var WORKER = /\/workers\/search\.[^/]*\.js(?:[?#]|$)/;
  var wanted = false;
  var waiting = [];

  function want() {
    if (wanted) return;
    wanted = true;
    waiting.splice(0).forEach(function (go) { go(); });
  }

  function whenWanted(go) {
    if (wanted) go();
    else waiting.push(go);
  }

  // The index is requested with XMLHttpRequest: its send waits.
  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.searchIndex = INDEX.test(String(url));
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    var request = this, args = arguments;
    if (!request.searchIndex || wanted) return send.apply(request, args);
    whenWanted(function () { send.apply(request, args); });
  };

  // The worker: a stand-in that keeps messages and listeners until the real one starts.
  var RealWorker = window.Worker;
  function SearchWorker(url, options) {
    var stand = document.createElement("span"); // an EventTarget with a DOM's dispatch
    var queued = [];
    var real = null;
    stand.postMessage = function (message) {
      if (real) real.postMessage(message);
      else queued.push(message);
    };
    stand.terminate = function () {
      if (real) real.terminate();
      queued = [];
    };
    whenWanted(function () {
      real = new RealWorker(url, options);
      ["message", "messageerror", "error"].forEach(function (type) {
        real.addEventListener(type, function (event) {
          var copy = type === "error" ? new Event("error") : new MessageEvent(type, { data: event.data });
          stand.dispatchEvent(copy);
          if (typeof stand["on" + type] === "function") stand["on" + type](copy);
        });
      });
      queued.splice(0).forEach(function (message) { real.postMessage(message); });
    });
    return stand;
  }
  window.Worker = function (url, options) {
    if (!WORKER.test(String(url))) return new RealWorker(url, options);
    return SearchWorker(url, options);
  };
  window.Worker.prototype = RealWorker.prototype;

  // The reader asks for search: the box gets focus (a click, Tab, or Material's keys, which
  // open search and focus it), or the header's search toggle is switched on.
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches('[data-md-component="search-query"]')) want();
  });
  document.addEventListener("change", function (event) {
    if (event.target.id === "__search" && event.target.checked) want();
  });
})();
