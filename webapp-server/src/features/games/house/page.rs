//! The house games' own pages, served for the launch iframe: small, responsive (360 px up),
//! readable in Telegram's webview, in English or French. The script is a static file (the CSP
//! allows no inline script); all state comes from the round and fairness endpoints.

use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use croupier_platform::http::escape_html;
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
    if !super::GAMES.contains(&sysname.as_str()) {
        return (StatusCode::NOT_FOUND, "unknown game").into_response();
    }
    let locale = Locale::parse_or_default(q.locale.as_deref());
    if sysname != "dice" {
        return Html(shell(&sysname, locale, q.token.as_deref().unwrap_or(""))).into_response();
    }
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
        "house.js" => {
            ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], HOUSE_JS)
                .into_response()
        }
        "house.css" => {
            ([(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], HOUSE_CSS)
                .into_response()
        }
        _ => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

const HOUSE_JS: &str = include_str!("assets/house.js");
const HOUSE_CSS: &str = include_str!("assets/house.css");

/// The lobby tile, drawn here (288×192).
pub async fn tile(Path(sysname): Path<String>) -> Response {
    let art = match sysname.as_str() {
        "dice" => {
            r##"<g transform="translate(70 46) rotate(-12)"><rect width="84" height="84" rx="16" fill="#f5c451"/><circle cx="22" cy="22" r="8" fill="#1b1300"/><circle cx="62" cy="62" r="8" fill="#1b1300"/><circle cx="42" cy="42" r="8" fill="#1b1300"/></g><g transform="translate(150 70) rotate(10)"><rect width="72" height="72" rx="14" fill="#2fd38a"/><circle cx="20" cy="20" r="7" fill="#06281a"/><circle cx="52" cy="20" r="7" fill="#06281a"/><circle cx="20" cy="52" r="7" fill="#06281a"/><circle cx="52" cy="52" r="7" fill="#06281a"/></g>"##
        }
        "lucky-sevens" => {
            r##"<g font-family="system-ui,sans-serif" font-size="64" font-weight="900" text-anchor="middle"><rect x="36" y="40" width="64" height="96" rx="12" fill="#f6efe0"/><rect x="112" y="40" width="64" height="96" rx="12" fill="#f6efe0"/><rect x="188" y="40" width="64" height="96" rx="12" fill="#f6efe0"/><text x="68" y="112" fill="#c8102e">7</text><text x="144" y="112" fill="#c8102e">7</text><text x="220" y="112" fill="#c8102e">7</text></g>"##
        }
        "gem-rush" => {
            r##"<g transform="translate(144 86)"><polygon points="0,-54 46,-18 28,44 -28,44 -46,-18" fill="#38bdf8"/><polygon points="0,-54 22,-18 0,44 -22,-18" fill="#7dd3fc"/><polygon points="-46,-18 46,-18 0,-8" fill="#0ea5e9"/></g><circle cx="60" cy="50" r="6" fill="#f5c451"/><circle cx="232" cy="120" r="5" fill="#f5c451"/>"##
        }
        "roulette" => {
            r##"<g transform="translate(144 88)"><circle r="66" fill="#7a4a1d"/><circle r="56" fill="#1a1f27" stroke="#f5c451" stroke-width="3"/><g stroke-width="14" fill="none"><circle r="46" stroke="#b3212f" stroke-dasharray="12 12"/></g><circle r="22" fill="#137a46"/><circle cx="30" cy="-30" r="6" fill="#f6efe0"/></g>"##
        }
        "mines" => {
            r##"<g transform="translate(84 36)"><rect width="36" height="36" rx="6" fill="#13402c"/><rect x="42" width="36" height="36" rx="6" fill="#223047"/><rect x="84" width="36" height="36" rx="6" fill="#13402c"/><rect y="42" width="36" height="36" rx="6" fill="#223047"/><rect x="42" y="42" width="36" height="36" rx="6" fill="#4a1520"/><rect x="84" y="42" width="36" height="36" rx="6" fill="#223047"/><rect y="84" width="36" height="36" rx="6" fill="#13402c"/><rect x="42" y="84" width="36" height="36" rx="6" fill="#223047"/><rect x="84" y="84" width="36" height="36" rx="6" fill="#13402c"/><circle cx="60" cy="60" r="11" fill="#ff5d6c"/></g>"##
        }
        "plinko" => {
            r##"<g fill="#8a99ad"><circle cx="144" cy="34" r="5"/><circle cx="124" cy="58" r="5"/><circle cx="164" cy="58" r="5"/><circle cx="104" cy="82" r="5"/><circle cx="144" cy="82" r="5"/><circle cx="184" cy="82" r="5"/><circle cx="84" cy="106" r="5"/><circle cx="124" cy="106" r="5"/><circle cx="164" cy="106" r="5"/><circle cx="204" cy="106" r="5"/></g><circle cx="154" cy="94" r="9" fill="#f5c451"/><g fill="#f5c451"><rect x="64" y="124" width="28" height="14" rx="3"/><rect x="196" y="124" width="28" height="14" rx="3"/></g><g fill="#2fd38a"><rect x="102" y="124" width="28" height="14" rx="3"/><rect x="158" y="124" width="28" height="14" rx="3"/></g>"##
        }
        _ => return (StatusCode::NOT_FOUND, "not found").into_response(),
    };
    let label = super::super::catalogue::HOUSE_GAMES.iter().find(|g| g.0 == sysname).map_or("", |g| g.2).to_uppercase();
    let svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 288 192" width="288" height="192"><defs><linearGradient id="b" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1b2a44"/><stop offset="1" stop-color="#0b0f14"/></linearGradient></defs><rect width="288" height="192" rx="18" fill="url(#b)"/>{art}<text x="144" y="178" fill="#e8eef6" font-family="system-ui,sans-serif" font-size="20" font-weight="700" text-anchor="middle">{label}</text></svg>"##
    );
    ([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "public, max-age=86400")], svg).into_response()
}

/// (key, English, French): the texts of the five newer games' pages; the script gets them too.
const TEXTS: &[(&str, &str, &str)] = &[
    ("balance", "Balance", "Solde"),
    ("bet", "Bet", "Mise"),
    ("win", "Win", "Gain"),
    ("spin", "Spin", "Lancer"),
    ("drop", "Drop ball", "Lâcher la bille"),
    ("start", "Start", "Commencer"),
    ("cashout", "Cash out", "Encaisser"),
    ("history", "Your rounds", "Vos parties"),
    ("paytable", "Paytable and rules", "Table des gains et règles"),
    ("fairness", "Provably fair", "Équité prouvable"),
    ("rotate", "New seeds (reveals the current server seed)", "Nouvelles graines (révèle la graine serveur actuelle)"),
    ("client_seed", "Client seed", "Graine client"),
    ("server_seed_hash", "Server seed hash", "Empreinte de la graine serveur"),
    ("revealed", "Revealed server seed", "Graine serveur révélée"),
    ("verify", "Verify", "Vérifier"),
    ("rtp", "Return to player", "Taux de retour au joueur"),
    ("limits", "Bets", "Mises"),
    ("max_win", "Largest win per round", "Gain maximal par partie"),
    ("rows", "Rows", "Rangées"),
    ("risk", "Risk", "Risque"),
    ("low", "Low", "Faible"),
    ("medium", "Medium", "Moyen"),
    ("high", "High", "Élevé"),
    ("mines", "Mines", "Mines"),
    ("next", "Next", "Suivant"),
    ("chip", "Chip", "Jeton"),
    ("clear", "Clear bets", "Effacer les mises"),
    ("total", "Total bet", "Mise totale"),
    ("red", "Red", "Rouge"),
    ("black", "Black", "Noir"),
    ("odd", "Odd", "Impair"),
    ("even", "Even", "Pair"),
    ("low_half", "1–18", "1–18"),
    ("high_half", "19–36", "19–36"),
    ("dozen", "Dozen", "Douzaine"),
    ("column", "Column", "Colonne"),
    ("free_spins", "Free spins", "Tours gratuits"),
    ("free_spin_button", "Free spin ({n} left, bet {bet})", "Tour gratuit ({n} restants, mise {bet})"),
    ("err_no_free_spins", "No free spins left for this game.", "Plus de tours gratuits pour ce jeu."),
    ("line", "Line", "Ligne"),
    (
        "scatter_rule",
        "3, 4 or 5 stars anywhere pay 2, 10 or 50 × the bet and start 8 free spins with every win doubled.",
        "3, 4 ou 5 étoiles n'importe où paient 2, 10 ou 50 × la mise et lancent 8 tours gratuits où chaque gain est doublé.",
    ),
    (
        "lines_rule",
        "10 lines; a line bet is a tenth of the bet; wins pay from the left, in line bets.",
        "10 lignes ; la mise par ligne est un dixième de la mise ; les gains se lisent depuis la gauche, en mises par ligne.",
    ),
    (
        "classic_rule",
        "One line (the middle row). Three of a kind, two cherries from the left or one cherry on the first reel pay, in multiples of the bet.",
        "Une ligne (la rangée du milieu). Trois symboles identiques, deux cerises à gauche ou une cerise sur le premier rouleau paient, en multiples de la mise.",
    ),
    (
        "roulette_rule",
        "Tap a spot to place a chip of the bet amount. Straight pays 35:1, dozens and columns 2:1, even chances 1:1; zero loses outside bets.",
        "Touchez une case pour y poser un jeton du montant de la mise. Plein : 35 pour 1, douzaines et colonnes : 2 pour 1, chances simples : 1 pour 1 ; le zéro fait perdre les mises extérieures.",
    ),
    (
        "mines_rule",
        "Open cells; every safe cell raises the multiplier. Cash out whenever you like; a mine ends the round.",
        "Ouvrez des cases ; chaque case sûre augmente le multiplicateur. Encaissez quand vous voulez ; une mine termine la partie.",
    ),
    (
        "plinko_rule",
        "The ball bounces left or right at each row; the slot it lands in pays its multiplier.",
        "La bille rebondit à gauche ou à droite à chaque rangée ; la case où elle tombe paie son multiplicateur.",
    ),
    ("cells", "Safe cells opened", "Cases sûres ouvertes"),
    ("multiplier", "Multiplier", "Multiplicateur"),
    ("err_not_enough_money", "Not enough money for this bet.", "Solde insuffisant pour cette mise."),
    ("err_bet_limits", "Bets go from {min} to {max}.", "Les mises vont de {min} à {max}."),
    (
        "err_bonus_max_bet",
        "While a bonus is being wagered, bets go up to {max}.",
        "Pendant la mise d'un bonus, les mises vont jusqu'à {max}.",
    ),
    ("err_invalid_bet", "The bet is not an amount.", "La mise n'est pas un montant."),
    ("err_invalid_params", "Check your choices.", "Vérifiez vos choix."),
    (
        "err_invalid_token",
        "This game session is not valid. Open the game again.",
        "Cette session de jeu n'est pas valide. Rouvrez le jeu.",
    ),
    (
        "err_token_expired",
        "This game session has expired. Open the game again.",
        "Cette session de jeu a expiré. Rouvrez le jeu.",
    ),
    ("err_round_open", "Finish the round in play first.", "Terminez d'abord la partie en cours."),
    ("err_no_round", "Place a bet to start a round.", "Misez pour commencer une partie."),
    ("err_no_bets", "Place at least one chip on the table.", "Posez au moins un jeton sur le tapis."),
    ("err_network", "No connection. Try again.", "Pas de connexion. Réessayez."),
    ("err_other", "Something went wrong. Try again.", "Un problème est survenu. Réessayez."),
];

fn text(key: &str, fr: bool) -> &'static str {
    TEXTS.iter().find(|(k, _, _)| *k == key).map_or("", |(_, en, f)| if fr { f } else { en })
}

fn title(sysname: &str, fr: bool) -> &'static str {
    super::super::catalogue::HOUSE_GAMES.iter().find(|g| g.0 == sysname).map_or("", |g| if fr { g.3 } else { g.2 })
}

/// The page of lucky-sevens, gem-rush, roulette, mines and plinko: a shared frame (balance,
/// bet, win, errors, history, paytable, fairness) around each game's own board, drawn by
/// `house.js`.
fn shell(sysname: &str, locale: Locale, token: &str) -> String {
    let fr = locale == Locale::Fr;
    let t = |k: &str| text(k, fr);
    let texts: serde_json::Map<String, serde_json::Value> =
        TEXTS.iter().map(|(k, en, f)| ((*k).to_owned(), serde_json::Value::from(if fr { *f } else { *en }))).collect();
    let (action, controls) = match sysname {
        "roulette" => ("spin", String::new()),
        "mines" => (
            "start",
            format!(
                r#"<label>{mines} <select id="mines">{options}</select></label>"#,
                mines = t("mines"),
                options = (1..25)
                    .map(|m| format!(r#"<option{}>{m}</option>"#, if m == 3 { " selected" } else { "" }))
                    .collect::<String>()
            ),
        ),
        "plinko" => (
            "drop",
            format!(
                r#"<label>{rows} <select id="rows"><option>8</option><option selected>12</option><option>16</option></select></label>
<label>{risk} <select id="risk"><option value="low">{low}</option><option value="medium" selected>{medium}</option><option value="high">{high}</option></select></label>"#,
                rows = t("rows"),
                risk = t("risk"),
                low = t("low"),
                medium = t("medium"),
                high = t("high")
            ),
        ),
        _ => ("spin", String::new()),
    };
    format!(
        r#"<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><link rel="stylesheet" href="/games/house/assets/house.css"></head>
<body><main data-token="{token}" data-game="{game}" data-locale="{lang}" data-t="{texts}">
<header class="panel row"><strong>{title}</strong><span>{balance}: <b id="balance">—</b></span></header>
<section class="panel stage" id="stage" aria-live="polite"></section>
<div class="panel controls">
<div class="row"><label>{bet} <input id="bet" inputmode="decimal" value="1.00" aria-label="{bet}"></label><span>{win}: <b id="win">—</b></span></div>
<div class="row">{controls}</div>
<div class="row"><button id="play" class="primary" type="button">{action}</button><button id="cashout" type="button" hidden>{cashout}</button></div>
<div class="row"><button id="free" type="button" hidden></button></div>
<div id="error" role="alert"></div></div>
<div class="panel"><strong>{history}</strong><ol id="history"></ol></div>
<details class="panel"><summary>{paytable}</summary><div id="paytable"></div></details>
<details class="panel"><summary>{fairness}</summary><div class="fair">
<span>{server_seed_hash}: <code id="hash">—</code></span><span>nonce <code id="nonce">0</code></span>
<label>{client_seed} <input id="client" maxlength="64" aria-label="{client_seed}"></label>
<button id="rotate" type="button">{rotate}</button><span id="revealed"></span></div></details>
</main><script src="/games/house/assets/house.js"></script></body></html>"#,
        lang = locale.code(),
        title = title(sysname, fr),
        game = escape_html(sysname),
        texts = escape_html(&serde_json::Value::Object(texts).to_string()),
        balance = t("balance"),
        bet = t("bet"),
        win = t("win"),
        action = t(action),
        cashout = t("cashout"),
        history = t("history"),
        paytable = t("paytable"),
        fairness = t("fairness"),
        server_seed_hash = t("server_seed_hash"),
        client_seed = t("client_seed"),
        rotate = t("rotate"),
    )
}
