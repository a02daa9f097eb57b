"use strict";
(function () {
  const main = document.querySelector("main");
  const token = main.dataset.token;
  const game = main.dataset.game;
  const T = JSON.parse(main.dataset.t);
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  // Symbols are drawn here as SVG (no image files, no emoji fonts needed).
  const ART = {
    cherry: '<path d="M20 8 C22 16 16 20 13 26 M20 8 C24 16 27 20 28 25" stroke="#3f8f3f" stroke-width="2.5" fill="none"/><circle cx="12" cy="29" r="7" fill="#d7263d"/><circle cx="28" cy="28" r="7" fill="#b5172b"/>',
    lemon: '<ellipse cx="20" cy="21" rx="14" ry="10" fill="#f4d03f"/><ellipse cx="15" cy="18" rx="4" ry="2" fill="#fff6b0"/>',
    orange: '<circle cx="20" cy="21" r="13" fill="#f08a24"/><path d="M20 8 l4 -4" stroke="#3f8f3f" stroke-width="3"/><circle cx="15" cy="16" r="3" fill="#ffc27a"/>',
    plum: '<circle cx="20" cy="22" r="12" fill="#7b3fa0"/><path d="M20 10 q4 -6 9 -5" stroke="#3f8f3f" stroke-width="3" fill="none"/><circle cx="15" cy="17" r="3" fill="#b98ad6"/>',
    bell: '<path d="M8 29 q2 -4 3 -12 q1 -9 9 -9 q8 0 9 9 q1 8 3 12z" fill="#f5c451"/><circle cx="20" cy="32" r="3.5" fill="#c9972c"/>',
    bar: '<rect x="4" y="12" width="32" height="16" rx="3" fill="#1b1300" stroke="#f5c451" stroke-width="2"/><text x="20" y="25" font-size="11" font-weight="900" fill="#f5c451" text-anchor="middle" font-family="system-ui,sans-serif">BAR</text>',
    seven: '<text x="20" y="32" font-size="30" font-weight="900" fill="#e0202f" stroke="#fff" stroke-width="1" text-anchor="middle" font-family="system-ui,sans-serif">7</text>',
    clover: '<circle cx="14" cy="15" r="7" fill="#2fa84f"/><circle cx="26" cy="15" r="7" fill="#2fa84f"/><circle cx="20" cy="25" r="7" fill="#2fa84f"/><path d="M20 25 q2 7 6 10" stroke="#2fa84f" stroke-width="3" fill="none"/>',
    crown: '<path d="M6 29 l2 -17 l7 8 l5 -12 l5 12 l7 -8 l2 17z" fill="#f5c451"/><rect x="6" y="29" width="28" height="5" rx="1" fill="#c9972c"/>',
    diamond: '<path d="M20 35 L5 16 L12 7 L28 7 L35 16z" fill="#38bdf8"/><path d="M5 16 L35 16 L20 35z" fill="#0ea5e9"/><path d="M12 7 L20 16 L28 7" fill="#bae6fd"/>',
    star: '<path d="M20 4 l4.7 10.3 11.3 1.2 -8.5 7.6 2.4 11.1 -9.9 -5.7 -9.9 5.7 2.4 -11.1 -8.5 -7.6 11.3 -1.2z" fill="#f5c451" stroke="#fff3c4" stroke-width="1"/>',
    gem: '<path d="M20 35 L5 16 L12 7 L28 7 L35 16z" fill="#2fd38a"/><path d="M5 16 L35 16 L20 35z" fill="#1fa36a"/>',
    bomb: '<circle cx="18" cy="23" r="12" fill="#111"/><path d="M26 12 l5 -5" stroke="#8a99ad" stroke-width="3"/><circle cx="32" cy="6" r="3" fill="#ff5d6c"/><circle cx="14" cy="19" r="3" fill="#555"/>',
  };
  const CARD = { ten: ["10", "#4fa3ff"], jack: ["J", "#2fd38a"], queen: ["Q", "#ff7ab6"], king: ["K", "#ff9f43"], ace: ["A", "#ff5d6c"] };
  function icon(name) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 40 40");
    svg.setAttribute("class", "icon");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", name);
    const card = CARD[name];
    svg.innerHTML = card
      ? '<text x="20" y="30" font-size="' + (card[0].length > 1 ? 20 : 26) + '" font-weight="900" text-anchor="middle" font-family="system-ui,sans-serif" fill="' + card[1] + '">' + card[0] + "</text>"
      : ART[name] || "";
    return svg;
  }
  const SYM = { cherry: "cherry", lemon: "lemon", orange: "orange", plum: "plum", bell: "bell", bar: "BAR", seven: "7", ten: "10", jack: "J", queen: "Q",
    king: "K", ace: "A", clover: "clover", crown: "crown", diamond: "diamond", star: "star" };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  let rules = null;
  let busy = false;
  let currency = "";

  function decimals() { const m = rules && rules.min_bet.split(".")[1]; return m ? m.length : 2; }
  function toMinor(text) {
    const d = decimals();
    const m = /^(\d+)(?:[.,](\d*))?$/.exec(String(text).trim());
    if (!m || (m[2] || "").length > d) return NaN;
    return Number(m[1]) * 10 ** d + Number((m[2] || "").padEnd(d, "0") || 0);
  }
  function fromMinor(n) { const d = decimals(); return d ? (n / 10 ** d).toFixed(d) : String(n); }

  function showError(code, body) {
    let text = T["err_" + code] || (body && body.message) || T.err_other;
    if (code === "bet_limits" && rules) text = text.replace("{min}", rules.min_bet + " " + rules.currency).replace("{max}", rules.max_bet + " " + rules.currency);
    if (code === "bonus_max_bet" && body && body.max_bet) text = text.replace("{max}", body.max_bet);
    $("error").textContent = text;
  }
  function clearError() { $("error").textContent = ""; }
  async function request(path, body) {
    try {
      const r = body === undefined ? await fetch(path) : await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const data = await r.json().catch(() => ({}));
      if (!r.ok) { showError(data.error || "other", data); return null; }
      return data;
    } catch (e) { showError("network"); return null; }
  }
  function setBalance(balance, cur) {
    currency = cur;
    $("balance").textContent = balance + " " + cur;
    if (window.parent !== window) window.parent.postMessage({ type: "croupier:balance", balance, currency: cur }, location.origin);
  }
  function setWin(body) {
    $("win").textContent = body.win + " " + body.currency;
    $("win").className = Number(body.win) > 0 ? "win" : "";
  }
  function setBusy(b) { busy = b; $("play").disabled = b; $("free").disabled = b; }

  // ---- Slots -------------------------------------------------------------------------------
  function drawReels(reels, hits) {
    const stage = $("stage");
    const cols = reels.length;
    const grid = el("div", "reels");
    grid.style.gridTemplateColumns = "repeat(" + cols + ",1fr)";
    for (let row = 0; row < 3; row++) {
      for (let reel = 0; reel < cols; reel++) {
        const c = el("div", "cell");
        c.append(icon(reels[reel][row]));
        if (game === "lucky-sevens" && row === 1) c.classList.add("pay");
        if (hits && hits.has(reel + ":" + row)) c.classList.add("hit");
        grid.append(c);
      }
    }
    const caption = stage.querySelector(".caption") || el("div", "caption");
    stage.replaceChildren(grid, caption);
    return caption;
  }
  function blankReels(cols) {
    const reels = [];
    for (let i = 0; i < cols; i++) reels.push(game === "lucky-sevens" ? ["bell", "seven", "bar"] : ["star", "diamond", "crown"]);
    return reels;
  }
  async function showSlot(body) {
    const o = body.outcome;
    if (game === "lucky-sevens") {
      const hits = new Set(o.won ? ["0:1", "1:1", "2:1"] : []);
      drawReels(o.reels, hits).textContent = o.won ? "× " + o.multiplier : "";
      return;
    }
    const lines = rules.paytable.lines;
    for (let i = 0; i < o.spins.length; i++) {
      const s = o.spins[i];
      const hits = new Set();
      for (const l of s.lines) for (let r = 0; r < l.count; r++) hits.add(r + ":" + lines[l.line - 1][r]);
      if (s.scatters >= 3) s.reels.forEach((reel, r) => reel.forEach((sym, row) => { if (sym === "star") hits.add(r + ":" + row); }));
      const caption = drawReels(s.reels, hits);
      const parts = s.lines.map((l) => T.line + " " + l.line + ": " + l.count + " × " + (SYM[l.symbol] || l.symbol) + " → " + l.pays);
      caption.textContent = (i > 0 ? T.free_spins + " " + i + "/" + (o.spins.length - 1) + " · " : "") + parts.join(" · ");
      if (i === 0 && o.free_spins > 0) caption.textContent += " · " + o.free_spins + " " + T.free_spins + "!";
      if (o.spins.length > 1) await sleep(i === 0 ? 1200 : 700);
    }
  }

  // ---- Roulette ----------------------------------------------------------------------------
  const RED = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36];
  const colour = (n) => (n === 0 ? "green" : RED.includes(n) ? "red" : "black");
  const chips = new Map();
  const spots = new Map();
  function totalMinor() { let t = 0; for (const v of chips.values()) t += v; return t; }
  function refreshChips() {
    for (const [key, button] of spots) {
      const old = button.querySelector(".chip");
      if (old) old.remove();
      if (chips.has(key)) button.append(el("span", "chip", fromMinor(chips.get(key))));
    }
    $("total").textContent = T.total + ": " + fromMinor(totalMinor()) + " " + currency;
  }
  function spot(key, label, cls) {
    const b = el("button", "spot " + (cls || ""), label);
    b.type = "button";
    b.onclick = () => {
      clearError();
      const amount = toMinor($("bet").value);
      if (!(amount > 0)) { showError("invalid_bet"); return; }
      chips.set(key, (chips.get(key) || 0) + amount);
      refreshChips();
    };
    spots.set(key, b);
    return b;
  }
  function buildRoulette() {
    const pocket = el("div", "pocket green", "0");
    pocket.id = "pocket";
    const board = el("div", "board");
    board.style.gridTemplateColumns = "1.2fr repeat(12,1fr) 1.2fr";
    const zero = spot("straight:0", "0", "green zero");
    board.append(zero);
    for (let row = 0; row < 3; row++) {
      for (let col = 0; col < 12; col++) {
        const n = col * 3 + (3 - row);
        board.append(spot("straight:" + n, String(n), colour(n)));
      }
      board.append(spot("column:" + (3 - row), "2:1"));
    }
    const outside = el("div", "outside");
    for (let d = 1; d <= 3; d++) { const b = spot("dozen:" + d, (d * 12 - 11) + "–" + d * 12); b.style.gridColumn = "span 2"; outside.append(b); }
    outside.append(spot("low:", T.low_half), spot("even:", T.even), spot("red:", T.red, "red"), spot("black:", T.black, "black"), spot("odd:", T.odd), spot("high:", T.high_half));
    const total = el("div", "caption"); total.id = "total";
    const clear = el("button", "", T.clear); clear.type = "button";
    clear.onclick = () => { chips.clear(); refreshChips(); };
    const caption = el("div", "caption", T.roulette_rule);
    const tools = el("div", "row"); tools.append(total, clear);
    $("stage").replaceChildren(pocket, board, outside, tools, caption);
    refreshChips();
  }
  function rouletteParams() {
    const bets = [];
    for (const [key, amount] of chips) {
      const [type, number] = key.split(":");
      const bet = { type, amount: fromMinor(amount) };
      if (number !== "") bet.number = Number(number);
      bets.push(bet);
    }
    return { bet: fromMinor(totalMinor()), bets };
  }
  function showRoulette(body) {
    const n = body.outcome.number;
    const p = $("pocket");
    p.textContent = n; p.className = "pocket " + colour(n);
    for (const [key, b] of spots) {
      const [type, number] = key.split(":");
      b.classList.toggle("hit", type === "straight" && Number(number) === n);
    }
  }

  // ---- Mines -------------------------------------------------------------------------------
  let minesRound = null;
  function drawMines(o) {
    const grid = el("div", "grid5");
    for (let i = 0; i < 25; i++) {
      const b = el("button", "tile", "");
      b.type = "button";
      const open = o && o.revealed.includes(i);
      const mine = o && o.layout && o.layout.includes(i);
      if (open) { b.classList.add(mine ? "mine" : "safe"); b.append(icon(mine ? "bomb" : "gem")); }
      else if (o && o.layout) { b.classList.add("ghost"); b.append(icon(mine ? "bomb" : "gem")); }
      b.disabled = !o || o.status !== "open" || open;
      b.onclick = () => reveal(i);
      grid.append(b);
    }
    const caption = el("div", "caption");
    if (o) caption.textContent = T.cells + ": " + o.revealed.filter((c) => !(o.layout || []).includes(c)).length + " · " + T.multiplier + " ×" + o.multiplier + (o.status === "open" ? " · " + T.next + " ×" + o.next_multiplier : "");
    $("stage").replaceChildren(grid, caption);
    const playing = o && o.status === "open";
    $("cashout").hidden = !playing;
    $("cashout").disabled = !playing || o.revealed.length === 0;
    $("play").hidden = !!playing;
    $("mines").disabled = !!playing;
  }
  async function reveal(cell) {
    if (busy) return;
    setBusy(true); clearError();
    const body = await request("/games/house/mines/reveal", { token, cell });
    setBusy(false);
    if (body) afterMines(body);
  }
  function afterMines(body) {
    minesRound = body.outcome.status === "open" ? body : null;
    drawMines(body.outcome);
    setBalance(body.balance, body.currency);
    if (body.outcome.status !== "open") { setWin(body); history(); seeds(); }
  }

  // ---- Plinko ------------------------------------------------------------------------------
  function plinkoTable() { return rules ? rules.paytable.tables[$("rows").value + "-" + $("risk").value] : []; }
  function drawPlinko(outcome) {
    const rows = Number($("rows").value);
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    const W = 400, H = 300, gap = W / (rows + 2), dy = (H - 20) / (rows + 1);
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("class", "plinko");
    for (let r = 0; r < rows; r++) {
      for (let k = 0; k <= r + 2; k++) {
        const c = document.createElementNS(ns, "circle");
        c.setAttribute("cx", W / 2 + (k - (r + 2) / 2) * gap);
        c.setAttribute("cy", 20 + r * dy);
        c.setAttribute("r", 3);
        c.setAttribute("fill", "#8a99ad");
        svg.append(c);
      }
    }
    if (outcome) {
      let x = W / 2;
      const points = [[x, 4]];
      outcome.path.forEach((right, r) => { x += (right ? 0.5 : -0.5) * gap; points.push([x, 20 + r * dy + dy / 2]); });
      points.push([x, H - 8]);
      const line = document.createElementNS(ns, "polyline");
      line.setAttribute("points", points.map((p) => p.join(",")).join(" "));
      line.setAttribute("fill", "none"); line.setAttribute("stroke", "#f5c451"); line.setAttribute("stroke-width", 3);
      const ball = document.createElementNS(ns, "circle");
      ball.setAttribute("cx", x); ball.setAttribute("cy", H - 8); ball.setAttribute("r", 7); ball.setAttribute("fill", "#f5c451");
      svg.append(line, ball);
    }
    const slots = el("div", "slots");
    const table = plinkoTable();
    slots.style.gridTemplateColumns = "repeat(" + table.length + ",minmax(0,1fr))";
    table.forEach((m, i) => { const s = el("div", "slot", String(Number(m))); if (outcome && outcome.slot === i) s.classList.add("hit"); slots.append(s); });
    $("stage").replaceChildren(svg, slots);
  }

  // ---- Shared ------------------------------------------------------------------------------
  function summary(i) {
    const o = i.outcome || {};
    switch (i.game) {
      case "lucky-sevens": return o.reels ? o.reels.map((r) => SYM[r[1]]).join(" ") : "";
      case "gem-rush": return "×" + o.multiplier + (o.free_spins ? " · " + o.free_spins + " " + T.free_spins : "");
      case "roulette": return o.number + " " + (T[o.color] || "");
      case "mines": return o.mines + " " + T.mines + " · " + (o.revealed || []).length + " · " + (o.status === "cashed" ? "×" + o.multiplier : o.status === "busted" ? "×0" : "…");
      case "plinko": return o.rows + " · " + (T[o.risk] || o.risk) + " · ×" + o.multiplier;
      default: return "";
    }
  }
  function verifyLink(i) {
    const q = new URLSearchParams({ game: i.game, server_seed: i.server_seed, client_seed: i.client_seed, nonce: i.nonce });
    const p = i.params || {};
    if (i.game === "plinko") { q.set("rows", p.rows); q.set("risk", p.risk); }
    if (i.game === "mines") q.set("mines", p.mines);
    const a = el("a", "", T.verify);
    a.href = "/games/house/verify?" + q.toString();
    a.target = "_blank"; a.rel = "noopener";
    return a;
  }
  async function history() {
    const h = await request("/games/house/history?token=" + encodeURIComponent(token));
    if (!h) return;
    $("history").replaceChildren(...h.items.map((i) => {
      const li = el("li", Number(i.win) > 0 ? "win" : "lose", summary(i) + " · " + i.bet + " → " + i.win + " " + i.currency + " · nonce " + i.nonce + " ");
      if (i.server_seed) li.append(verifyLink(i));
      return li;
    }));
  }
  async function seeds() {
    const s = await request("/games/house/fairness?token=" + encodeURIComponent(token));
    if (!s) return;
    $("hash").textContent = s.server_seed_hash; $("nonce").textContent = s.nonce;
    if (document.activeElement !== $("client")) $("client").value = s.client_seed;
  }
  $("rotate").onclick = async () => {
    clearError();
    const s = await request("/games/house/fairness", { token, client_seed: $("client").value.trim() });
    if (!s) return;
    $("revealed").textContent = T.revealed + ": " + s.previous.server_seed + " (nonce " + s.previous.nonce + ")";
    seeds(); history();
  };
  function rulesTable(head, rows) {
    const t = el("table");
    const tr = el("tr"); head.forEach((h) => tr.append(el("th", "", h))); t.append(tr);
    rows.forEach((r) => {
      const x = el("tr");
      r.forEach((c) => { const td = el("td"); if (Array.isArray(c)) c.forEach((n) => td.append(icon(n))); else td.textContent = String(c); x.append(td); });
      t.append(x);
    });
    return t;
  }
  function drawRules() {
    const p = rules.paytable;
    const box = $("paytable");
    const facts = el("p", "", T.rtp + ": " + rules.rtp + " % · " + T.limits + ": " + rules.min_bet + "–" + rules.max_bet + " " + rules.currency +
      " · " + T.max_win + ": ×" + rules.max_win_multiplier + ", " + rules.max_win + " " + rules.currency);
    const parts = [facts];
    if (game === "lucky-sevens") {
      parts.push(el("p", "", T.classic_rule), rulesTable(["", "×"], p.three_of_a_kind.map((r) => [[r.symbol, r.symbol, r.symbol], r.pays])
        .concat([[["cherry", "cherry"], p.two_cherries], [["cherry"], p.one_cherry]])));
    } else if (game === "gem-rush") {
      parts.push(el("p", "", T.lines_rule), el("p", "", T.scatter_rule), rulesTable(["", "3", "4", "5"], p.symbols.map((s) => [[s.symbol]].concat(s.pays))));
    } else if (game === "roulette") {
      parts.push(el("p", "", T.roulette_rule), rulesTable(["", ""], p.bets.map((b) => [T[b.type] || b.type, b.pays])));
    } else if (game === "mines") {
      const m = Number($("mines").value);
      const row = p.table.find((r) => r.mines === m);
      parts.push(el("p", "", T.mines_rule), rulesTable([T.cells, T.multiplier], row.multipliers.map((x, k) => [k + 1, "×" + x])));
    } else if (game === "plinko") {
      parts.push(el("p", "", T.plinko_rule), rulesTable(["", T.multiplier], plinkoTable().map((m, k) => [k, "×" + m])));
    }
    box.replaceChildren(...parts);
  }

  let freeSpins = null;
  function showFree(f) {
    freeSpins = game === "roulette" ? null : f;
    $("free").hidden = !freeSpins || freeSpins.remaining <= 0;
    if (freeSpins) $("free").textContent = T.free_spin_button.replace("{n}", freeSpins.remaining).replace("{bet}", freeSpins.bet + " " + currency);
  }
  $("free").onclick = () => playRound(true);
  $("play").onclick = () => playRound(false);
  async function playRound(free) {
    if (busy) return;
    clearError();
    let body = { token, bet: free ? freeSpins.bet : $("bet").value.trim() };
    if (free) body.freespin = true;
    if (game === "roulette") {
      if (chips.size === 0) { showError("no_bets"); return; }
      body = Object.assign(body, rouletteParams());
    } else if (game === "plinko") {
      body.rows = Number($("rows").value); body.risk = $("risk").value;
    } else if (game === "mines") {
      body.mines = Number($("mines").value);
    }
    setBusy(true);
    const r = await request("/games/house/" + game + "/round", body);
    if (!r) { setBusy(false); return; }
    $("nonce").textContent = r.nonce;
    if (game === "mines") { afterMines(r); setBusy(false); return; }
    if (game === "roulette") showRoulette(r);
    else if (game === "plinko") drawPlinko(r.outcome);
    else await showSlot(r);
    setBalance(r.balance, r.currency); setWin(r);
    if (r.outcome.freespin) showFree({ remaining: r.outcome.freespin.remaining, bet: freeSpins.bet });
    setBusy(false);
    history();
  }
  $("cashout").onclick = async () => {
    if (busy) return;
    setBusy(true); clearError();
    const body = await request("/games/house/mines/cashout", { token });
    setBusy(false);
    if (body) afterMines(body);
  };

  async function init() {
    const state = await request("/games/house/" + game + "/state?token=" + encodeURIComponent(token));
    if (state) setBalance(state.balance, state.currency);
    if (state && state.freespins) showFree(state.freespins);
    rules = await request("/games/house/" + game + "/paytable?currency=" + encodeURIComponent((state && state.currency) || "USD"));
    if (!rules) return;
    currency = rules.currency;
    $("bet").value = fromMinor(toMinor(rules.min_bet) * 10);
    if (game === "lucky-sevens") drawReels(blankReels(3));
    if (game === "gem-rush") drawReels(blankReels(5));
    if (game === "roulette") buildRoulette();
    if (game === "plinko") {
      drawPlinko(null);
      $("rows").onchange = () => { drawPlinko(null); drawRules(); };
      $("risk").onchange = () => { drawPlinko(null); drawRules(); };
    }
    if (game === "mines") {
      $("mines").onchange = drawRules;
      if (state && state.round) { minesRound = state.round; $("bet").value = state.round.bet; drawMines(state.round.outcome); } else drawMines(null);
    }
    drawRules();
    seeds(); history();
  }
  init();
})();
