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
  const SYM = { cherry: "🍒", lemon: "🍋", orange: "🍊", plum: "🍇", bell: "🔔", bar: "BAR", seven: "7", ten: "10", jack: "J", queen: "Q",
    king: "K", ace: "A", clover: "🍀", crown: "👑", diamond: "💎", star: "⭐" };
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
  function setBusy(b) { busy = b; $("play").disabled = b; }

  // ---- Slots -------------------------------------------------------------------------------
  function drawReels(reels, hits) {
    const stage = $("stage");
    const cols = reels.length;
    const grid = el("div", "reels");
    grid.style.gridTemplateColumns = "repeat(" + cols + ",1fr)";
    for (let row = 0; row < 3; row++) {
      for (let reel = 0; reel < cols; reel++) {
        const c = el("div", "cell", SYM[reels[reel][row]] || "?");
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
      const parts = s.lines.map((l) => T.line + " " + l.line + ": " + l.count + "× " + (SYM[l.symbol] || l.symbol) + " → " + l.pays);
      caption.textContent = (i > 0 ? T.free_spins + " " + i + "/" + (o.spins.length - 1) + " · " : "") + parts.join(" · ");
      if (i === 0 && o.free_spins > 0) caption.textContent += " · ⭐ " + o.free_spins + " " + T.free_spins;
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
      if (open) { b.classList.add(mine ? "mine" : "safe"); b.textContent = mine ? "💣" : "💎"; }
      else if (o && o.layout) { b.classList.add("ghost"); b.textContent = mine ? "💣" : "💎"; }
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
    slots.style.gridTemplateColumns = "repeat(" + table.length + ",1fr)";
    table.forEach((m, i) => { const s = el("div", "slot", m); if (outcome && outcome.slot === i) s.classList.add("hit"); slots.append(s); });
    $("stage").replaceChildren(svg, slots);
  }

  // ---- Shared ------------------------------------------------------------------------------
  function summary(i) {
    const o = i.outcome || {};
    switch (i.game) {
      case "lucky-sevens": return o.reels ? o.reels.map((r) => SYM[r[1]]).join(" ") : "";
      case "gem-rush": return "×" + o.multiplier + (o.free_spins ? " · ⭐ " + o.free_spins + " " + T.free_spins : "");
      case "roulette": return o.number + " " + (T[o.color] || "");
      case "mines": return o.mines + " 💣 · " + (o.revealed || []).length + " · " + (o.status === "cashed" ? "×" + o.multiplier : o.status === "busted" ? "💥" : "…");
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
    rows.forEach((r) => { const x = el("tr"); r.forEach((c) => x.append(el("td", "", String(c)))); t.append(x); });
    return t;
  }
  function drawRules() {
    const p = rules.paytable;
    const box = $("paytable");
    const facts = el("p", "", T.rtp + ": " + rules.rtp + " % · " + T.limits + ": " + rules.min_bet + "–" + rules.max_bet + " " + rules.currency +
      " · " + T.max_win + ": ×" + rules.max_win_multiplier + ", " + rules.max_win + " " + rules.currency);
    const parts = [facts];
    if (game === "lucky-sevens") {
      parts.push(el("p", "", T.classic_rule), rulesTable(["", "×"], p.three_of_a_kind.map((r) => [SYM[r.symbol].repeat(r.symbol === "bar" || r.symbol === "seven" ? 1 : 3) + (r.symbol === "bar" || r.symbol === "seven" ? " ×3" : ""), r.pays])
        .concat([["🍒🍒", p.two_cherries], ["🍒", p.one_cherry]])));
    } else if (game === "gem-rush") {
      parts.push(el("p", "", T.lines_rule), el("p", "", T.scatter_rule), rulesTable(["", "3", "4", "5"], p.symbols.map((s) => [SYM[s.symbol]].concat(s.pays))));
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

  $("play").onclick = async () => {
    if (busy) return;
    clearError();
    let body = { token, bet: $("bet").value.trim() };
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
    setBusy(false);
    history();
  };
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
