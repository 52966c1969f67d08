/* Council's few lines of page behaviour; everything else is htmx. */
(function () {
  "use strict";

  // The live debate page: when the htmx ws extension reconnects, ask for the events
  // after the last sequence number this page has applied (kept in #debate-seq by every
  // update), not the one it was loaded with, so a reconnect replays exactly the gap.
  function lastSeq() {
    var el = document.getElementById("debate-seq");
    return el ? el.getAttribute("data-last-seq") : null;
  }
  // htmx's default backoff doubles up to 64 s, so a page that lost its server for a
  // few seconds (a deploy, a restart) could sit "reconnecting" for a minute after the
  // server is back. Cap the wait at 4 s, with jitter so many pages don't retry at once.
  if (window.htmx) {
    htmx.config.wsReconnectDelay = function (retryCount) {
      var cap = Math.min(4000, 500 * Math.pow(2, Math.min(retryCount, 3)));
      return cap / 2 + Math.random() * cap / 2;
    };
  }
  if (window.htmx && htmx.createWebSocket) {
    var create = htmx.createWebSocket;
    htmx.createWebSocket = function (url) {
      var seq = lastSeq();
      if (seq !== null && url.indexOf("/ws/debates/") !== -1) {
        url = url.replace(/([?&]after=)\d*/, "$1" + seq);
      }
      return create(url);
    };
  }

  // Updates replace whole sections; reopen the turns the reader had opened.
  var opened = new Set();
  document.addEventListener("toggle", function (event) {
    var el = event.target;
    if (el.tagName === "DETAILS" && el.id) {
      if (el.open) { opened.add(el.id); } else { opened.delete(el.id); }
    }
  }, true);
  document.addEventListener("htmx:wsAfterMessage", function () {
    opened.forEach(function (id) {
      var el = document.getElementById(id);
      if (el && !el.open) { el.open = true; }
    });
  });

  // Connection state, shown as the "live" dot.
  function setWs(state) {
    var live = document.getElementById("debate-live");
    if (live) { live.setAttribute("data-ws", state); }
  }
  // Only the debate's own socket: the site-wide live channel (#live-channel, the list
  // and the badge) opens and closes on its own.
  function debateSocket(event) {
    return !(event.target && event.target.id === "live-channel");
  }
  document.addEventListener("htmx:wsOpen", function (event) {
    if (debateSocket(event)) { setWs("open"); }
  });
  document.addEventListener("htmx:wsClose", function (event) {
    if (debateSocket(event)) { setWs("closed"); }
  });

  // The new-debate form: the estimate needs the question's length, not its text.
  document.addEventListener("input", function (event) {
    var el = event.target;
    var target = el.id === "id_question" ? "question-chars"
      : el.id === "id_context" ? "context-chars" : null;
    if (target) {
      var counter = document.getElementById(target);
      if (counter) { counter.value = String(el.value.length); }
    }
  });

  // The debate forms: the estimate counts the files chosen for upload by their size
  // (the files are sent only with the form). Capturing: the size is set before the
  // form's own change handler asks for the estimate.
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (!(el && el.name === "source_files" && el.files)) { return; }
    var counter = document.getElementById("upload-bytes");
    if (!counter) { return; }
    var bytes = 0;
    for (var i = 0; i < el.files.length; i++) { bytes += el.files[i].size; }
    counter.value = String(bytes);
  }, true);

  // The new-debate form: "Edit these" puts the previewed automatic options into the
  // Options field, where the user changes them before starting.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-fill-options]") : null;
    if (!button) { return; }
    var field = document.getElementById(button.getAttribute("aria-controls"));
    if (!field) { return; }
    field.value = button.getAttribute("data-fill-options");
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.focus();
  });

  // Transcript: expand or collapse every turn.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-details]") : null;
    if (!button) { return; }
    var open = button.getAttribute("data-details") === "open";
    document.querySelectorAll("details.turn").forEach(function (d) { d.open = open; });
  });

  // The printable page's "Print…" button.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-print]") : null;
    if (button) { window.print(); }
  });

  // "Copy" next to an invitation link.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-copy]") : null;
    if (!button) { return; }
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input) { return; }
    input.select();
    var done = function () { button.textContent = "Copied"; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () {});
    } else if (document.execCommand && document.execCommand("copy")) {
      done();
    }
  });

  // The persona picker: list the chosen personas in the order they will sit (the
  // order of the list, which is the order the form sends them in).
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.closest || !box.closest("fieldset.personas")) { return; }
    var picker = box.closest("fieldset.personas");
    var order = picker.querySelector("[data-panel-order] ol");
    if (!order) { return; }
    order.textContent = "";
    picker.querySelectorAll("input[type=checkbox]:checked").forEach(function (el) {
      var label = el.closest("label");
      var li = document.createElement("li");
      li.textContent = label ? label.textContent.trim() : el.value;
      order.appendChild(li);
    });
    var empty = picker.querySelector("[data-panel-empty]");
    if (empty) { empty.hidden = order.children.length > 0; }
  });

  // Actions that cannot be undone ask first: Cancel and One more round (the server asks
  // on a page of its own when this script does not run), member Remove, invitation and
  // API token Revoke. A form sent by htmx (comment Delete) uses hx-confirm instead: htmx
  // sends it from its own submit listener, before this one runs.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (!question) { return; }
    if (!window.confirm(question)) { event.preventDefault(); return; }
    if (!form.querySelector("input[name=confirm]")) {
      var yes = document.createElement("input");
      yes.type = "hidden"; yes.name = "confirm"; yes.value = "yes";
      form.appendChild(yes);
    }
  });

  // The "live" dot goes off once the debate has ended (its status card says so).
  document.addEventListener("htmx:wsAfterMessage", function () {
    var card = document.getElementById("debate-status");
    var live = document.getElementById("debate-live");
    if (card && live && !/status-(queued|running)/.test(card.className)) {
      live.setAttribute("data-ended", "true");
    }
  });
})();
