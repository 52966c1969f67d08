// Comments in place on the synthesis page: select text in a passage and comment on it;
// a thread on a passage shows beside it on a desk and below it on a phone, and is
// anchored again whenever the comments panel or the page re-renders. Also @-mention
// completion in every comment box. Our own script, no library beyond htmx.
(function () {
  "use strict";
  var DESK = window.matchMedia("(min-width: 1100px)");
  var GAP = 8;

  function passages() {
    return Array.prototype.slice.call(document.querySelectorAll(".synthesis [data-passage]"));
  }

  // The passages' text as the server builds it (collab.selectors.synthesis_text):
  // whitespace runs as one space, passages joined by a space. map[i] is the [text node,
  // offset] of character i (null for the space between two passages).
  function textMap() {
    var text = "", map = [], afterSpace = true;
    passages().forEach(function (passage) {
      if (!afterSpace) { text += " "; map.push(null); afterSpace = true; }
      var walker = document.createTreeWalker(passage, NodeFilter.SHOW_TEXT);
      var node;
      while ((node = walker.nextNode())) {
        var s = node.nodeValue;
        for (var i = 0; i < s.length; i++) {
          if (/\s/.test(s[i])) {
            if (!afterSpace) { text += " "; map.push([node, i]); afterSpace = true; }
          } else {
            text += s[i]; map.push([node, i]); afterSpace = false;
          }
        }
      }
    });
    if (afterSpace && text.length) { text = text.slice(0, -1); map.pop(); }
    return { text: text, map: map };
  }

  function nthIndex(text, quote, n) {
    var at = -1;
    for (var k = 0; k <= n; k++) {
      at = text.indexOf(quote, at + 1);
      if (at < 0) return -1;
    }
    return at;
  }

  // ------------------------------------------------------------------- placing threads

  function marginBox() { return document.getElementById("margin-threads"); }

  function anchorOf(tm, quote, occurrence) {
    var start = nthIndex(tm.text, quote, occurrence);
    var at = start >= 0 ? tm.map[start] || tm.map[start + 1] : null;
    if (!at) return null;
    var range = document.createRange();
    range.setStart(at[0], at[1]);
    range.setEnd(at[0], Math.min(at[1] + 1, at[0].nodeValue.length));
    return { range: range, passage: at[0].parentElement.closest("[data-passage]") };
  }

  // Desk: in the margin, level with the passage (pushed down past the one above);
  // phone: in the flow, right after the passage.
  function place(items) {
    var margin = marginBox();
    if (!margin) return;
    document.querySelectorAll("[data-passage].has-thread").forEach(function (p) {
      p.classList.remove("has-thread");
    });
    items.forEach(function (item) {
      if (item.el.classList.contains("thread")) item.anchor.passage.classList.add("has-thread");
    });
    var desk = DESK.matches;
    if (desk) {
      var top0 = margin.getBoundingClientRect().top;
      items.forEach(function (item) { item.top = item.anchor.range.getBoundingClientRect().top - top0; });
      items.sort(function (a, b) { return a.top - b.top; });
      var bottom = 0;
      items.forEach(function (item) {
        var el = item.el;
        el.classList.add("placed");
        margin.appendChild(el);
        var top = Math.max(item.top, bottom);
        el.style.top = top + "px";
        el.classList.add("beside");
        el.classList.remove("below");
        bottom = top + el.offsetHeight + GAP;
      });
      margin.style.minHeight = bottom + "px";
    } else {
      items.forEach(function (item) {
        var el = item.el;
        el.classList.add("placed");
        el.style.top = "";
        el.classList.add("below");
        el.classList.remove("beside");
        // After the passage (and after threads already placed after it).
        var after = item.anchor.passage;
        while (after.nextElementSibling && after.nextElementSibling.classList.contains("placed")) {
          after = after.nextElementSibling;
        }
        after.insertAdjacentElement("afterend", el);
      });
      margin.style.minHeight = "";
    }
  }

  function placeThreads() {
    var panel = document.getElementById("comments-panel");
    if (!panel || !marginBox()) return;
    // Threads placed before a panel re-render are stale copies of the fresh ones.
    document.querySelectorAll(".thread.placed").forEach(function (el) {
      if (!panel.contains(el) && panel.querySelector("#" + CSS.escape(el.id))) el.remove();
    });
    var tm = textMap(), items = [];
    document.querySelectorAll(".thread[data-quote]").forEach(function (el) {
      var anchor = anchorOf(tm, el.dataset.quote, parseInt(el.dataset.occurrence, 10) || 0);
      if (!anchor || !anchor.passage) return;  // stays in the panel, with its label
      el.classList.add("placed");
      items.push({ el: el, anchor: anchor });
    });
    var form = document.getElementById("selection-comment");
    if (form && !form.hidden && pending) {
      var formAnchor = anchorOf(tm, pending.quote, pending.occurrence);
      if (formAnchor && formAnchor.passage) items.push({ el: form, anchor: formAnchor });
    }
    place(items);
  }

  // ------------------------------------------------------------- commenting on a selection

  var pending = null;  // {quote, offset, occurrence} of the selection being commented on

  function selectedQuote() {
    var sel = window.getSelection();
    if (!sel || sel.isCollapsed || !sel.rangeCount) return null;
    var range = sel.getRangeAt(0);
    var start = range.startContainer.nodeType === 1 ? range.startContainer : range.startContainer.parentElement;
    var end = range.endContainer.nodeType === 1 ? range.endContainer : range.endContainer.parentElement;
    if (!start || !end || !start.closest(".synthesis") || !end.closest(".synthesis")) return null;
    var tm = textMap(), first = -1, last = -1;
    for (var i = 0; i < tm.map.length; i++) {
      var at = tm.map[i];
      if (!at) continue;
      var inside = false;
      try {
        inside = range.comparePoint(at[0], at[1]) === 0 && range.comparePoint(at[0], at[1] + 1) === 0;
      } catch (e) { inside = false; }
      if (inside) { if (first < 0) first = i; last = i; }
    }
    if (first < 0) return null;
    var quote = tm.text.slice(first, last + 1).trim();
    if (!quote) return null;
    var occurrence = 0, at2 = tm.text.indexOf(quote);
    while (at2 >= 0 && at2 < first) { occurrence++; at2 = tm.text.indexOf(quote, at2 + 1); }
    return { quote: quote, offset: first, occurrence: occurrence, rect: range.getBoundingClientRect() };
  }

  function selectionButton() { return document.getElementById("comment-selection"); }

  function onSelection() {
    var button = selectionButton();
    var article = document.querySelector(".synthesis[data-can-comment]");
    if (!button || !article) return;
    var found = selectedQuote();
    if (!found) { button.hidden = true; return; }
    // Positioned against the page, so it must not sit inside a positioned card.
    if (button.parentElement !== document.body) document.body.appendChild(button);
    button.hidden = false;
    button.style.top = (window.scrollY + found.rect.bottom + 6) + "px";
    button.style.left = Math.max(8, Math.min(window.scrollX + found.rect.left,
      document.documentElement.clientWidth - button.offsetWidth - 8)) + "px";
    button.selection = found;
  }

  var scheduled = false;
  document.addEventListener("selectionchange", function () {
    if (scheduled) return;
    scheduled = true;
    window.requestAnimationFrame(function () { scheduled = false; onSelection(); });
  });

  // Keep the selection when the button is pressed (a mousedown would collapse it).
  document.addEventListener("mousedown", function (event) {
    if (event.target.closest && event.target.closest("#comment-selection")) event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest) return;
    if (target.closest("#comment-selection")) {
      var button = selectionButton(), form = document.getElementById("selection-comment");
      if (!form || !button.selection) return;
      pending = button.selection;
      form.elements.quote.value = pending.quote;
      form.elements.quote_offset.value = String(pending.offset);
      form.querySelector("[data-selection-quote]").textContent = pending.quote;
      document.getElementById("selection-comment-error").textContent = "";
      form.hidden = false;
      button.hidden = true;
      placeThreads();
      form.elements.body.focus();
    } else if (target.closest("#selection-comment [data-cancel]")) {
      closeSelectionForm();
    }
  });

  function closeSelectionForm() {
    var form = document.getElementById("selection-comment");
    if (!form) return;
    pending = null;
    form.hidden = true;
    form.reset();
    form.classList.remove("placed", "beside", "below");
    form.style.top = "";
    // Back to its home below the synthesis, out of the passages.
    var home = document.getElementById("comments");
    if (home) home.insertBefore(form, home.querySelector("#comments-panel") || null);
  }

  // A saved comment comes back as the re-rendered panel; a refusal is retargeted to the
  // form's error line (HX-Retarget) and the form stays open with what was typed.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = document.getElementById("selection-comment");
    if (!form || event.detail.elt !== form || !event.detail.successful) return;
    if (!event.detail.xhr.getResponseHeader("HX-Retarget")) closeSelectionForm();
  });

  document.addEventListener("htmx:afterSettle", placeThreads);
  DESK.addEventListener("change", placeThreads);
  window.addEventListener("resize", function () { if (DESK.matches) placeThreads(); });
  document.addEventListener("DOMContentLoaded", placeThreads);

  // --------------------------------------------------------------- @-mention completion

  var menu = null;  // {list, box, start}

  function members() {
    var data = document.getElementById("team-members");
    try { return data ? JSON.parse(data.textContent) : []; } catch (e) { return []; }
  }

  function closeMenu() {
    if (menu) { menu.list.remove(); menu = null; }
  }

  function openMenu(box) {
    closeMenu();
    var before = box.value.slice(0, box.selectionStart);
    var typed = /(?:^|[^\w.@+-])@([\w.+-]*)$/.exec(before);
    if (!typed) return;
    var prefix = typed[1].toLowerCase();
    var names = members().filter(function (n) { return n.toLowerCase().indexOf(prefix) === 0; }).slice(0, 8);
    if (!names.length) return;
    var list = document.createElement("ul");
    list.className = "mention-menu";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Team members");
    names.forEach(function (name, i) {
      var item = document.createElement("li");
      var option = document.createElement("button");
      option.type = "button";
      option.className = "mention-option" + (i === 0 ? " active" : "");
      option.setAttribute("role", "option");
      option.dataset.name = name;
      option.textContent = "@" + name;
      item.appendChild(option);
      list.appendChild(item);
    });
    box.insertAdjacentElement("afterend", list);
    menu = { list: list, box: box, start: before.length - typed[1].length };
  }

  function choose(name) {
    var box = menu.box, start = menu.start;
    var rest = box.value.slice(box.selectionStart);
    box.value = box.value.slice(0, start) + name + " " + rest.replace(/^[\w.@+-]*/, "");
    var caret = start + name.length + 1;
    closeMenu();
    box.focus();
    box.setSelectionRange(caret, caret);
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("textarea[data-mentions]")) openMenu(event.target);
  });

  document.addEventListener("keydown", function (event) {
    if (!menu || event.target !== menu.box) return;
    var options = Array.prototype.slice.call(menu.list.querySelectorAll(".mention-option"));
    var active = options.findIndex(function (o) { return o.classList.contains("active"); });
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      options[active].classList.remove("active");
      active = (active + (event.key === "ArrowDown" ? 1 : options.length - 1)) % options.length;
      options[active].classList.add("active");
    } else if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault();
      choose(options[Math.max(active, 0)].dataset.name);
    } else if (event.key === "Escape") {
      closeMenu();
    }
  });

  document.addEventListener("mousedown", function (event) {
    var option = event.target.closest && event.target.closest(".mention-option");
    if (option && menu) { event.preventDefault(); choose(option.dataset.name); }
    else if (menu && !(event.target.closest && event.target.closest(".mention-menu"))) closeMenu();
  });
})();
