//! The in-memory index behind `games.get` (issue 6: p99 ≤ 5 ms over a 10,000-game catalogue).
//!
//! Each replica keeps the whole catalogue as a snapshot: the games with their answers prebuilt in
//! both languages, compact filter keys (provider, type and categories as small integers, the
//! folded search text) and the four sort orders already sorted. A query walks one sort order,
//! tests the cheap keys first and the search text last, counts the total and keeps one page — no
//! SQL on the way except the player's favourites.
//!
//! Freshness: triggers bump `catalogue_meta.version` on every change to `games` or
//! `game_category_members`, whoever makes it (this server, another replica, the bench generator,
//! an operator's SQL). A request looks at the version when the last look is older than
//! [`CHECK_EVERY_MS`], and the first to see a new version reloads while the others keep answering
//! from the old snapshot; a change therefore shows within half a second.

use super::catalogue::{GAME_COLUMNS, GameItem, GameList, GameRow, fold};
use crate::db::{Db, now_ms};
use crate::hot::Versioned;
use croupier_shared::Locale;
use schemars::JsonSchema;
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, RwLock};

/// How old the last version check may be before a request looks again.
pub const CHECK_EVERY_MS: i64 = 500;

pub struct Index {
    current: RwLock<Option<Arc<Snapshot>>>,
    checked_at: AtomicI64,
    reload: tokio::sync::Mutex<()>,
    /// Guests' pages by [`guest_key`], for one catalogue version: a guest's answer depends on
    /// nothing but the request and the version (issue 23).
    guest_pages: Versioned<GuestPage>,
}

impl Default for Index {
    fn default() -> Index {
        Index {
            current: RwLock::default(),
            checked_at: AtomicI64::default(),
            reload: tokio::sync::Mutex::default(),
            guest_pages: Versioned::new(GUEST_PAGES),
        }
    }
}

impl Index {
    /// A guest's page of `snapshot` kept under `key` ([`guest_key`]).
    pub fn guest_page(&self, snapshot: &Arc<Snapshot>, key: &str) -> Option<Page> {
        let GuestPage { locale, total, picks } = self.guest_pages.get(snapshot.version, key)?;
        Some(Page { snapshot: Arc::clone(snapshot), locale, total, picks })
    }

    /// Keeps a guest's `page` under `key` ([`guest_key`]).
    pub fn keep_guest_page(&self, key: String, page: &Page) {
        let kept = GuestPage { locale: page.locale, total: page.total, picks: page.picks.clone() };
        self.guest_pages.put(page.snapshot.version, key, kept);
    }

    /// The catalogue as of (at most [`CHECK_EVERY_MS`] ago).
    pub async fn snapshot(&self, db: &Db) -> Result<Arc<Snapshot>, sqlx::Error> {
        let now = now_ms();
        let last = self.checked_at.load(Ordering::Acquire);
        if let Some(snapshot) = self.peek() {
            // One request per interval looks at the version; the others answer from what is there.
            if now - last < CHECK_EVERY_MS
                || self.checked_at.compare_exchange(last, now, Ordering::AcqRel, Ordering::Acquire).is_err()
            {
                return Ok(snapshot);
            }
            if current_version(db).await? == snapshot.version {
                return Ok(snapshot);
            }
        }
        let _one_loader = self.reload.lock().await;
        let version = current_version(db).await?;
        if let Some(snapshot) = self.peek()
            && snapshot.version >= version
        {
            return Ok(snapshot);
        }
        let snapshot = Arc::new(Snapshot::load(db, version).await?);
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = Some(Arc::clone(&snapshot));
        self.checked_at.store(now_ms(), Ordering::Release);
        Ok(snapshot)
    }

    fn peek(&self) -> Option<Arc<Snapshot>> {
        self.current.read().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

async fn current_version(db: &Db) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT version FROM catalogue_meta WHERE id = 1").fetch_one(db.pool()).await
}

/// The keys one game is filtered on, kept small and together so a scan stays in cache.
#[derive(Clone)]
struct Keys {
    ix: u32,
    id: i64,
    provider: u32,
    game_type: u32,
    categories: Box<[u32]>,
}

struct Game {
    sysname: String,
    /// Its tile (`image_url`), which the lobby and the game page show first and large.
    image: String,
    search: String,
    /// The answer already serialised: `[locale][is_favourite]` (English, French).
    json: [[Box<RawValue>; 2]; 2],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sort {
    Popular,
    New,
    Name,
}

/// What a `games.get` asks for, already validated.
#[derive(Debug, Default)]
pub struct Query<'a> {
    pub category: Option<&'a str>,
    pub providers: Vec<&'a str>,
    pub game_type: Option<&'a str>,
    /// Folded (lower-case, accents removed); empty for none.
    pub search: String,
    pub sysnames: Option<Vec<&'a str>>,
    /// Only these game ids (the player's favourites), when set.
    pub only: Option<&'a HashSet<i64>>,
    pub sort: Option<Sort>,
    pub locale: Locale,
    pub limit: usize,
    pub offset: usize,
}

pub struct Snapshot {
    version: i64,
    games: Vec<Game>,
    /// Interned provider, type and category names.
    names: HashMap<String, u32>,
    /// The filter keys of every game, laid out in each sort order (so a scan reads one array).
    popular: Order,
    newest: Order,
    by_name: [Order; 2],
}

/// A kept guest's page, without its snapshot: the locale, the number of matches and the picks.
#[derive(Clone)]
struct GuestPage {
    locale: usize,
    total: usize,
    picks: Vec<(u32, bool)>,
}

/// Guests' pages kept per catalogue version before the cache starts over.
pub const GUEST_PAGES: usize = 4096;

/// The key of a guest's page: the locale and the raw `options` as sent.
pub fn guest_key(locale: Locale, options: &str) -> String {
    format!("{}\n{options}", locale.code())
}

/// One sort order: the keys in that order, and for each provider and each category the
/// positions (ascending) of its games in it — so a filtered query visits only its candidates.
struct Order {
    keys: Vec<Keys>,
    by_provider: HashMap<u32, Vec<u32>>,
    by_category: HashMap<u32, Vec<u32>>,
}

impl Order {
    fn new(keys: Vec<Keys>) -> Order {
        let mut by_provider: HashMap<u32, Vec<u32>> = HashMap::new();
        let mut by_category: HashMap<u32, Vec<u32>> = HashMap::new();
        for (position, k) in keys.iter().enumerate() {
            let position = u32::try_from(position).unwrap_or(u32::MAX);
            by_provider.entry(k.provider).or_default().push(position);
            for c in &k.categories {
                by_category.entry(*c).or_default().push(position);
            }
        }
        Order { keys, by_provider, by_category }
    }
}

/// Positions to visit, ascending: the merge of a few sorted lists, or every position.
enum Candidates<'a> {
    All(std::ops::Range<u32>),
    One(std::slice::Iter<'a, u32>),
    Merge(Vec<std::iter::Peekable<std::slice::Iter<'a, u32>>>),
}

impl Iterator for Candidates<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        match self {
            Candidates::All(range) => range.next(),
            Candidates::One(list) => list.next().copied(),
            Candidates::Merge(lists) => {
                let (mut best, mut at) = (u32::MAX, None);
                for (i, list) in lists.iter_mut().enumerate() {
                    if let Some(&&p) = list.peek()
                        && p < best
                    {
                        (best, at) = (p, Some(i));
                    }
                }
                at.and_then(|i| lists[i].next().copied())
            }
        }
    }
}

/// One page of `games.get`: picks from a snapshot, written out from the prebuilt JSON.
pub struct Page {
    snapshot: Arc<Snapshot>,
    locale: usize,
    total: usize,
    picks: Vec<(u32, bool)>,
}

impl Page {
    pub fn total(&self) -> usize {
        self.total
    }
}

impl Serialize for Page {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Items<'a>(&'a Page);
        impl Serialize for Items<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let page = self.0;
                let mut seq = serializer.serialize_seq(Some(page.picks.len()))?;
                for &(ix, favourite) in &page.picks {
                    seq.serialize_element(
                        &*page.snapshot.games[ix as usize].json[page.locale][usize::from(favourite)],
                    )?;
                }
                seq.end()
            }
        }
        let mut list = serializer.serialize_struct("GameList", 2)?;
        list.serialize_field("total", &self.total)?;
        list.serialize_field("items", &Items(self))?;
        list.end()
    }
}

/// The wire shape is [`GameList`]'s.
impl JsonSchema for Page {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        GameList::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        GameList::json_schema(generator)
    }
}

#[derive(sqlx::FromRow)]
struct IndexRow {
    #[sqlx(flatten)]
    game: GameRow,
    search_text: String,
    popularity: i64,
    created_at: i64,
}

impl Snapshot {
    async fn load(db: &Db, version: i64) -> Result<Snapshot, sqlx::Error> {
        let rows: Vec<IndexRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT {GAME_COLUMNS}, g.search_text, g.popularity, g.created_at FROM games g ORDER BY g.id"
        )))
        .fetch_all(db.pool())
        .await?;
        let members: Vec<(String, i64)> =
            sqlx::query_as("SELECT category, game_id FROM game_category_members").fetch_all(db.pool()).await?;
        Ok(Snapshot::build(version, rows, members))
    }

    fn build(version: i64, rows: Vec<IndexRow>, members: Vec<(String, i64)>) -> Snapshot {
        let mut names = HashMap::new();
        let mut intern = |name: &str| {
            let next = u32::try_from(names.len()).unwrap_or(u32::MAX);
            *names.entry(name.to_owned()).or_insert(next)
        };
        let mut categories: HashMap<i64, Vec<u32>> = HashMap::new();
        for (category, game_id) in &members {
            categories.entry(*game_id).or_default().push(intern(category));
        }
        let mut keys = Vec::with_capacity(rows.len());
        let mut games = Vec::with_capacity(rows.len());
        let json = |item: &GameItem, favourite: bool| {
            let mut item = item.clone();
            item.is_favourite = favourite;
            serde_json::value::to_raw_value(&item).unwrap_or_else(|_| RawValue::NULL.to_owned())
        };
        for (ix, row) in rows.iter().enumerate() {
            let g = &row.game;
            let [en, fr] = [g.item(Locale::En, false), g.item(Locale::Fr, false)];
            keys.push(Keys {
                ix: u32::try_from(ix).unwrap_or(u32::MAX),
                id: g.id,
                provider: intern(&g.provider),
                game_type: intern(&g.game_type),
                categories: categories.remove(&g.id).unwrap_or_default().into_boxed_slice(),
            });
            games.push(Game {
                sysname: g.sysname.clone(),
                image: g.image_url.clone(),
                search: row.search_text.clone(),
                json: [[json(&en, false), json(&en, true)], [json(&fr, false), json(&fr, true)]],
            });
        }
        let order = |cmp: &dyn Fn(&IndexRow, &IndexRow) -> std::cmp::Ordering| {
            let mut sorted = keys.clone();
            sorted.sort_by(|a: &Keys, b: &Keys| cmp(&rows[a.ix as usize], &rows[b.ix as usize]));
            Order::new(sorted)
        };
        let popular = order(&|a, b| b.popularity.cmp(&a.popularity).then(a.game.id.cmp(&b.game.id)));
        let newest = order(&|a, b| b.created_at.cmp(&a.created_at).then(b.game.id.cmp(&a.game.id)));
        // Names sort without regard to case or accents (`Dés` before `Dragon`).
        let by_name = |name: fn(&GameRow) -> &str| {
            let folded: HashMap<i64, String> = rows.iter().map(|r| (r.game.id, fold(name(&r.game)))).collect();
            order(&|a, b| folded[&a.game.id].cmp(&folded[&b.game.id]).then(a.game.id.cmp(&b.game.id)))
        };
        let name_en = by_name(|g| &g.name_en);
        let name_fr = by_name(|g| &g.name_fr);
        Snapshot { version, games, names, popular, newest, by_name: [name_en, name_fr] }
    }

    /// The catalogue version it was built from.
    pub fn version(&self) -> i64 {
        self.version
    }

    /// The tile a guest's games page shows first and large (its likely LCP, preloaded by the
    /// page's head): the first game of the unfiltered lobby in its default order, or the game
    /// `sysname`'s own. None when there is no such game.
    pub fn lead_image(&self, sysname: Option<&str>) -> Option<&str> {
        let game = match sysname {
            None => &self.games[self.popular.keys.first()?.ix as usize],
            Some(sysname) => self.games.iter().find(|g| g.sysname == sysname)?,
        };
        Some(game.image.as_str()).filter(|image| !image.is_empty())
    }

    /// The page `query` asks for and the number of games that match it; `favourites` marks
    /// the items the player likes.
    pub fn query(self: &Arc<Self>, query: &Query<'_>, favourites: &HashSet<i64>) -> Page {
        // A name the catalogue has never seen matches nothing (`None` inside), an absent filter
        // everything (`None` outside).
        let known = |name: &str| self.names.get(name).copied();
        let category = query.category.map(known);
        let game_type = query.game_type.map(known);
        let providers: Option<Vec<u32>> = (!query.providers.is_empty()).then(|| {
            let mut ids: Vec<u32> = query.providers.iter().filter_map(|p| known(p)).collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        });
        let sysnames: Option<HashSet<&str>> = query.sysnames.as_ref().map(|s| s.iter().copied().collect());
        let finder = (!query.search.is_empty()).then(|| memchr::memmem::Finder::new(query.search.as_bytes()));
        let locale = usize::from(query.locale == Locale::Fr);
        let order = match query.sort.unwrap_or(Sort::Popular) {
            Sort::Popular => &self.popular,
            Sort::New => &self.newest,
            Sort::Name => &self.by_name[locale],
        };
        // The narrowest list that holds every match: a few providers' games, else the category's.
        let empty = Vec::new();
        let candidates = match (&providers, category) {
            (Some(p), _) if p.len() <= 8 => Candidates::Merge(
                p.iter().map(|id| order.by_provider.get(id).unwrap_or(&empty).iter().peekable()).collect(),
            ),
            (_, Some(None)) => Candidates::One(empty.iter()),
            (_, Some(Some(c))) => Candidates::One(order.by_category.get(&c).unwrap_or(&empty).iter()),
            _ => Candidates::All(0..u32::try_from(order.keys.len()).unwrap_or(u32::MAX)),
        };
        let mut total = 0;
        let mut picks = Vec::with_capacity(query.limit.min(order.keys.len()));
        for position in candidates {
            let k = &order.keys[position as usize];
            let ix = k.ix;
            let matches = providers.as_ref().is_none_or(|p| p.contains(&k.provider))
                && game_type.is_none_or(|t| t == Some(k.game_type))
                && category.is_none_or(|c| c.is_some_and(|c| k.categories.contains(&c)))
                && query.only.is_none_or(|only| only.contains(&k.id))
                && sysnames.as_ref().is_none_or(|s| s.contains(self.games[ix as usize].sysname.as_str()))
                && finder.as_ref().is_none_or(|f| f.find(self.games[ix as usize].search.as_bytes()).is_some());
            if !matches {
                continue;
            }
            if total >= query.offset && picks.len() < query.limit {
                picks.push((ix, favourites.contains(&k.id)));
            }
            total += 1;
        }
        Page { snapshot: Arc::clone(self), locale, total, picks }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: i64, sysname: &str, provider: &str, game_type: &str, en: &str, fr: &str, popularity: i64) -> IndexRow {
        IndexRow {
            game: GameRow {
                id,
                sysname: sysname.into(),
                provider: provider.into(),
                game_type: game_type.into(),
                name_en: en.into(),
                name_fr: fr.into(),
                image_url: format!("/{sysname}.svg"),
                rtp_bp: 9600,
                volatility: "low".into(),
                has_demo: 1,
                config: "{}".into(),
            },
            search_text: fold(&format!("{en} {fr} {sysname}")),
            popularity,
            created_at: id * 10,
        }
    }

    fn snapshot() -> Arc<Snapshot> {
        Arc::new(Snapshot::build(
            1,
            vec![
                row(1, "dice", "house", "fast", "Dice", "Dés", 50),
                row(2, "dragon", "studio-a", "slot", "Golden Dragon", "Dragon doré", 90),
                row(3, "wolf", "studio-b", "slot", "Wild Wolf", "Loup sauvage", 70),
                row(4, "pearl", "studio-a", "live", "Pearl", "Perle", 10),
            ],
            vec![("slots".into(), 2), ("slots".into(), 3), ("popular".into(), 2), ("fast".into(), 1)],
        ))
    }

    /// The page as the client reads it: (total, items).
    fn page(s: &Arc<Snapshot>, query: &Query<'_>, favourites: &HashSet<i64>) -> (usize, Vec<serde_json::Value>) {
        let page = s.query(query, favourites);
        let value = serde_json::to_value(&page).unwrap();
        assert_eq!(value["total"], page.total());
        (page.total(), value["items"].as_array().unwrap().clone())
    }

    fn sysnames(items: &[serde_json::Value]) -> Vec<&str> {
        items.iter().map(|i| i["sysname"].as_str().unwrap()).collect()
    }

    fn q<'a>() -> Query<'a> {
        Query { limit: 48, ..Query::default() }
    }

    #[test]
    fn the_lead_image_is_the_unfiltered_lobbys_first_tile_or_the_named_games() {
        let s = snapshot();
        // Popular order: dragon (90) first.
        assert_eq!(s.lead_image(None), Some("/dragon.svg"));
        assert_eq!(s.lead_image(Some("wolf")), Some("/wolf.svg"));
        assert_eq!(s.lead_image(Some("no-such-game")), None);
        assert_eq!(Snapshot::build(2, Vec::new(), Vec::new()).version(), 2);
        assert_eq!(Snapshot::build(2, Vec::new(), Vec::new()).lead_image(None), None);
    }

    #[test]
    fn a_kept_guest_page_answers_as_the_query_did_and_starts_over_when_full() {
        let (index, s) = (Index::default(), snapshot());
        let none = HashSet::new();
        let query = Query { category: Some("slots"), locale: Locale::Fr, ..q() };
        let page = s.query(&query, &none);
        let key = guest_key(Locale::Fr, r#"{"category":"slots"}"#);
        assert!(index.guest_page(&s, &key).is_none());
        index.keep_guest_page(key.clone(), &page);
        let kept = index.guest_page(&s, &key).unwrap();
        assert_eq!(serde_json::to_value(&kept).unwrap(), serde_json::to_value(&page).unwrap());
        assert!(index.guest_page(&s, &guest_key(Locale::En, r#"{"category":"slots"}"#)).is_none(), "per locale");
        for i in 0..GUEST_PAGES {
            index.keep_guest_page(format!("en\n{i}"), &page);
        }
        assert!(index.guest_page(&s, &key).is_none(), "full: started over");
    }

    #[test]
    fn filters_combine_and_unknown_names_match_nothing() {
        let s = snapshot();
        let none = HashSet::new();
        let (total, items) = page(&s, &q(), &none);
        assert_eq!((total, sysnames(&items)), (4, vec!["dragon", "wolf", "dice", "pearl"]));
        let (total, items) = page(&s, &Query { category: Some("slots"), providers: vec!["studio-a"], ..q() }, &none);
        assert_eq!((total, sysnames(&items)), (1, vec!["dragon"]));
        assert_eq!(page(&s, &Query { category: Some("nope"), ..q() }, &none).0, 0);
        assert_eq!(page(&s, &Query { providers: vec!["nope"], ..q() }, &none).0, 0);
        let (total, items) =
            page(&s, &Query { providers: vec!["studio-b", "studio-a", "studio-a", "nope"], ..q() }, &none);
        assert_eq!((total, sysnames(&items)), (3, vec!["dragon", "wolf", "pearl"]), "merged in order, once each");
        let (total, items) = page(&s, &Query { category: Some("slots"), sort: Some(Sort::Name), ..q() }, &none);
        assert_eq!((total, sysnames(&items)), (2, vec!["dragon", "wolf"]));
        assert_eq!(page(&s, &Query { game_type: Some("live"), ..q() }, &none).0, 1);
        assert_eq!(page(&s, &Query { sysnames: Some(vec!["wolf", "dice"]), ..q() }, &none).0, 2);
    }

    #[test]
    fn search_is_folded_and_pages_keep_the_total() {
        let s = snapshot();
        let liked = HashSet::from([3]);
        let (total, items) = page(&s, &Query { search: "dore".into(), ..q() }, &liked);
        assert_eq!((total, sysnames(&items)), (1, vec!["dragon"]));
        let (total, items) = page(&s, &Query { limit: 1, offset: 1, ..q() }, &liked);
        assert_eq!((total, sysnames(&items)), (4, vec!["wolf"]));
        assert_eq!(items[0]["is_favourite"], true);
        assert_eq!(page(&s, &q(), &liked).1[0]["is_favourite"], false);
        let (total, _) = page(&s, &Query { only: Some(&liked), ..q() }, &liked);
        assert_eq!(total, 1);
    }

    #[test]
    fn sorts_by_name_in_the_players_language() {
        let s = snapshot();
        let none = HashSet::new();
        let (_, en) = page(&s, &Query { sort: Some(Sort::Name), ..q() }, &none);
        assert_eq!(sysnames(&en), vec!["dice", "dragon", "pearl", "wolf"]);
        let (_, fr) = page(&s, &Query { sort: Some(Sort::Name), locale: Locale::Fr, ..q() }, &none);
        assert_eq!(sysnames(&fr), vec!["dice", "dragon", "wolf", "pearl"]);
        assert_eq!(fr[0]["name"], "Dés");
        let (_, new) = page(&s, &Query { sort: Some(Sort::New), ..q() }, &none);
        assert_eq!(sysnames(&new), vec!["pearl", "wolf", "dragon", "dice"]);
    }
}
