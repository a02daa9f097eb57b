//! The house games' own pages, served for the launch iframe: small, responsive (360 px up),
//! readable in Telegram's webview, in English or French. The script is a static file (the CSP
//! allows no inline script); all state comes from the round and fairness endpoints.

use crate::state::AppState;
use crate::web::escape_html;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use croupier_shared::Locale;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct PageQuery {
    token: Option<String>,
    locale: Option<String>,
}

struct Texts {
    bet: &'static str,
    target: &'static str,
    under: &'static str,
    over: &'static str,
    roll: &'static str,
    balance: &'static str,
    history: &'static str,
    fairness: &'static str,
    rotate: &'static str,
    client_seed: &'static str,
    server_seed_hash: &'static str,
    win_chance: &'static str,
    payout: &'static str,
}

const EN: Texts = Texts {
    bet: "Bet",
    target: "Target",
    under: "Roll under",
    over: "Roll over",
    roll: "Roll",
    balance: "Balance",
    history: "Your rounds",
    fairness: "Provably fair",
    rotate: "New seeds (reveals the current server seed)",
    client_seed: "Client seed",
    server_seed_hash: "Server seed hash",
    win_chance: "Win chance",
    payout: "Payout",
};

const FR: Texts = Texts {
    bet: "Mise",
    target: "Cible",
    under: "Sous la cible",
    over: "Au-dessus",
    roll: "Lancer",
    balance: "Solde",
    history: "Vos parties",
    fairness: "Équité prouvable",
    rotate: "Nouvelles graines (révèle la graine serveur actuelle)",
    client_seed: "Graine client",
    server_seed_hash: "Empreinte de la graine serveur",
    win_chance: "Chance de gain",
    payout: "Gain",
};

pub async fn game_page(
    State(_state): State<AppState>,
    Path(sysname): Path<String>,
    Query(q): Query<PageQuery>,
) -> Response {
    if sysname != "dice" {
        return (StatusCode::NOT_FOUND, "unknown game").into_response();
    }
    let locale = Locale::parse_or_default(q.locale.as_deref());
    let t = if locale == Locale::Fr { &FR } else { &EN };
    let token = escape_html(q.token.as_deref().unwrap_or(""));
    let html = format!(
        r#"<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dice</title><style>
:root{{color-scheme:dark;--bg:#0b0f14;--panel:#151c26;--line:#243042;--gold:#f5c451;--green:#2fd38a;--red:#ff5d6c;--text:#e8eef6;--muted:#8a99ad}}
*{{box-sizing:border-box}}body{{margin:0;background:var(--bg);color:var(--text);font:15px/1.4 system-ui,sans-serif;padding:max(12px,env(safe-area-inset-top)) 12px 16px}}
main{{max-width:560px;margin:0 auto;display:grid;gap:12px}}.panel{{background:var(--panel);border:1px solid var(--line);border-radius:14px;padding:14px}}
.row{{display:flex;gap:10px;align-items:center;justify-content:space-between;flex-wrap:wrap}}label{{color:var(--muted);font-size:13px}}
input{{background:#0f151d;color:var(--text);border:1px solid var(--line);border-radius:10px;padding:10px;font-size:16px;width:100%}}
input[type=range]{{padding:0}}.toggle button{{flex:1}}button{{background:#1d2735;color:var(--text);border:1px solid var(--line);border-radius:10px;padding:10px 14px;font-size:15px;cursor:pointer}}
button.on{{border-color:var(--gold);color:var(--gold)}}#roll{{width:100%;background:var(--gold);color:#1b1300;font-weight:700;font-size:18px;border:0;padding:14px}}
#roll:disabled{{opacity:.6}}#result{{font-size:44px;font-weight:800;text-align:center;min-height:60px}}.win{{color:var(--green)}}.lose{{color:var(--red)}}
#error{{color:var(--red);min-height:1.2em;text-align:center}}ol{{margin:0;padding-left:18px;max-height:180px;overflow:auto}}code{{word-break:break-all;color:var(--muted)}}
</style></head><body><main data-token="{token}" data-locale="{lang}">
<div class="panel row"><span>{balance}</span><strong id="balance">—</strong></div>
<div class="panel"><div id="result">—</div><div id="error" role="alert"></div></div>
<div class="panel" style="display:grid;gap:10px">
<label>{bet} <input id="bet" inputmode="decimal" value="1.00" aria-label="{bet}"></label>
<label>{target}: <strong id="target-value">50.00</strong> <input id="target" type="range" min="2" max="98" step="0.01" value="50" aria-label="{target}"></label>
<div class="row toggle"><button id="under" class="on" type="button">{under}</button><button id="over" type="button">{over}</button></div>
<div class="row"><span>{win_chance}: <strong id="chance">50.00 %</strong></span><span>{payout}: <strong id="multiplier">×1.98</strong></span></div>
<button id="roll" type="button">{roll}</button></div>
<div class="panel"><strong>{history}</strong><ol id="history"></ol></div>
<div class="panel" style="display:grid;gap:6px"><strong>{fairness}</strong>
<span>{server_seed_hash}: <code id="hash">—</code></span><span>{client_seed}: <code id="client">—</code> · nonce <code id="nonce">0</code></span>
<button id="rotate" type="button">{rotate}</button><code id="revealed"></code></div>
</main><script src="/games/house/assets/dice.js"></script></body></html>"#,
        lang = locale.code(),
        bet = t.bet,
        target = t.target,
        under = t.under,
        over = t.over,
        roll = t.roll,
        balance = t.balance,
        history = t.history,
        fairness = t.fairness,
        rotate = t.rotate,
        client_seed = t.client_seed,
        server_seed_hash = t.server_seed_hash,
        win_chance = t.win_chance,
        payout = t.payout,
    );
    Html(html).into_response()
}

const DICE_JS: &str = r#""use strict";
(function () {
  const main = document.querySelector("main");
  const token = main.dataset.token;
  const $ = (id) => document.getElementById(id);
  let over = false;
  const target = () => Number($("target").value);
  function refresh() {
    $("target-value").textContent = target().toFixed(2);
    const outcomes = over ? 10000 - Math.round(target() * 100) : Math.round(target() * 100);
    $("chance").textContent = (outcomes / 100.01).toFixed(2) + " %";
    $("multiplier").textContent = "×" + (Math.floor(9900 * 10001 / outcomes) / 10000).toFixed(4);
  }
  function setOver(value) { over = value; $("over").classList.toggle("on", over); $("under").classList.toggle("on", !over); refresh(); }
  $("under").onclick = () => setOver(false);
  $("over").onclick = () => setOver(true);
  $("target").oninput = refresh;
  async function seeds() {
    const r = await fetch("/games/house/fairness?token=" + encodeURIComponent(token));
    if (!r.ok) return;
    const s = await r.json();
    $("hash").textContent = s.server_seed_hash; $("client").textContent = s.client_seed; $("nonce").textContent = s.nonce;
  }
  async function history() {
    const r = await fetch("/games/house/history?token=" + encodeURIComponent(token));
    if (!r.ok) return;
    const h = await r.json();
    $("history").replaceChildren(...h.items.map((i) => {
      const li = document.createElement("li");
      li.textContent = i.outcome.roll + " " + (i.outcome.condition === "over" ? ">" : "<") + " " + i.outcome.target + " · " + i.bet + " → " + i.win + " " + i.currency + " · nonce " + i.nonce;
      li.className = i.outcome.won ? "win" : "lose";
      return li;
    }));
  }
  $("roll").onclick = async () => {
    $("roll").disabled = true; $("error").textContent = "";
    try {
      const r = await fetch("/games/house/dice/round", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, bet: $("bet").value.trim(), target: target().toFixed(2), condition: over ? "over" : "under" }) });
      const body = await r.json();
      if (!r.ok) { $("error").textContent = body.message || body.error; return; }
      $("result").textContent = body.outcome.roll; $("result").className = body.outcome.won ? "win" : "lose";
      $("balance").textContent = body.balance + " " + body.currency; $("nonce").textContent = body.nonce;
      if (window.parent !== window) window.parent.postMessage({ type: "croupier:balance", balance: body.balance, currency: body.currency }, location.origin);
      history();
    } catch (e) { $("error").textContent = String(e); } finally { $("roll").disabled = false; }
  };
  $("rotate").onclick = async () => {
    const r = await fetch("/games/house/fairness", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) });
    if (!r.ok) return;
    const s = await r.json();
    $("revealed").textContent = "server seed " + s.previous.server_seed + " (nonce " + s.previous.nonce + ")";
    seeds(); history();
  };
  refresh(); seeds(); history();
})();
"#;

pub async fn asset(Path(file): Path<String>) -> Response {
    match file.as_str() {
        "dice.js" => {
            ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], DICE_JS)
                .into_response()
        }
        _ => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// The lobby tile, drawn here (288×192).
pub async fn tile(Path(sysname): Path<String>) -> Response {
    if sysname != "dice" {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 288 192" width="288" height="192"><defs><linearGradient id="b" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1b2a44"/><stop offset="1" stop-color="#0b0f14"/></linearGradient></defs><rect width="288" height="192" rx="18" fill="url(#b)"/><g transform="translate(70 46) rotate(-12)"><rect width="84" height="84" rx="16" fill="#f5c451"/><circle cx="22" cy="22" r="8" fill="#1b1300"/><circle cx="62" cy="62" r="8" fill="#1b1300"/><circle cx="42" cy="42" r="8" fill="#1b1300"/></g><g transform="translate(150 70) rotate(10)"><rect width="72" height="72" rx="14" fill="#2fd38a"/><circle cx="20" cy="20" r="7" fill="#06281a"/><circle cx="52" cy="20" r="7" fill="#06281a"/><circle cx="20" cy="52" r="7" fill="#06281a"/><circle cx="52" cy="52" r="7" fill="#06281a"/></g><text x="144" y="178" fill="#e8eef6" font-family="system-ui,sans-serif" font-size="20" font-weight="700" text-anchor="middle">DICE</text></svg>"##;
    ([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "public, max-age=86400")], svg).into_response()
}
