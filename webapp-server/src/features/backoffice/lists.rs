//! Lists in the shape of react-admin's simple REST data provider:
//! `?sort=["field","ASC"]&range=[0,24]&filter={"k":"v"}` (each optional, URL-encoded JSON) →
//! a JSON array and `Content-Range: {resource} {start}-{end}/{total}`. An unknown sort field or
//! malformed JSON answers 400 naming the parameter. CSV exports take the same filters and sort
//! and return up to [`EXPORT_MAX`] rows. Each list is a [`Listing`]: its permission, sort
//! fields, select and filters; [`Listing::page`] and [`Listing::export`] are the two handlers'
//! bodies, so a list's rules are written once for both.

use super::{Staff, bad, csv};
use crate::api::ApiError;
use crate::db::Db;
use axum::Json;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use croupier_platform::http::csv_line;
use croupier_shared::FieldCode;
use serde::Serialize;
use serde_json::{Map, Value};

pub const EXPORT_MAX: i64 = 100_000;
/// The longest page a list answers.
const PAGE_MAX: i64 = 1000;

pub struct ListQuery {
    /// The column to order by and whether descending.
    pub order: (&'static str, bool),
    pub offset: i64,
    pub limit: i64,
    filter: Map<String, Value>,
}

impl ListQuery {
    /// Parses the query string; `sorts` maps the sort fields allowed to their columns, and
    /// `default` (one of them) orders newest first when no sort is given.
    pub fn parse(raw: Option<&str>, sorts: &[(&str, &'static str)], default: &str) -> Result<ListQuery, ApiError> {
        let mut sort = None;
        let mut range = None;
        let mut filter = Map::new();
        for (key, value) in form_urlencoded::parse(raw.unwrap_or("").as_bytes()) {
            match key.as_ref() {
                "sort" => sort = Some(value.into_owned()),
                "range" => range = Some(value.into_owned()),
                "filter" => {
                    filter = match serde_json::from_str::<Value>(&value) {
                        Ok(Value::Object(map)) => map,
                        _ => return Err(bad("filter", FieldCode::Invalid)),
                    }
                }
                _ => {}
            }
        }
        let column = |field: &str| sorts.iter().find(|(f, _)| *f == field).map(|(_, c)| *c);
        let order = match sort {
            None => (column(default).unwrap_or("id"), true),
            Some(text) => {
                let parsed: (String, String) =
                    serde_json::from_str(&text).map_err(|_| bad("sort", FieldCode::Invalid))?;
                let col = column(&parsed.0).ok_or_else(|| bad("sort", FieldCode::Unsupported))?;
                let desc = match parsed.1.to_ascii_uppercase().as_str() {
                    "ASC" => false,
                    "DESC" => true,
                    _ => return Err(bad("sort", FieldCode::Invalid)),
                };
                (col, desc)
            }
        };
        let (offset, limit) = match range {
            None => (0, 25),
            Some(text) => {
                let (start, end): (i64, i64) =
                    serde_json::from_str(&text).map_err(|_| bad("range", FieldCode::Invalid))?;
                if start < 0 || end < start {
                    return Err(bad("range", FieldCode::Invalid));
                }
                (start, (end - start + 1).min(PAGE_MAX))
            }
        };
        Ok(ListQuery { order, offset, limit, filter })
    }

    /// The same query for an export: every row up to [`EXPORT_MAX`].
    pub fn all(mut self) -> ListQuery {
        self.offset = 0;
        self.limit = EXPORT_MAX;
        self
    }

    /// A text filter (numbers are taken as their text); blank is absent.
    pub fn text(&self, key: &str) -> Result<Option<String>, ApiError> {
        match self.filter.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) if s.len() <= 200 => Ok(Some(s.trim().to_owned())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(_) => Err(bad(&format!("filter.{key}"), FieldCode::Invalid)),
        }
    }

    /// A whole-number filter.
    pub fn int(&self, key: &str) -> Result<Option<i64>, ApiError> {
        match self.filter.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => {
                n.as_i64().map(Some).ok_or_else(|| bad(&format!("filter.{key}"), FieldCode::Invalid))
            }
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) => {
                s.trim().parse().map(Some).map_err(|_| bad(&format!("filter.{key}"), FieldCode::Invalid))
            }
            Some(_) => Err(bad(&format!("filter.{key}"), FieldCode::Invalid)),
        }
    }
}

/// A bound value.
#[derive(Debug, Clone)]
pub enum Arg {
    Int(i64),
    Text(String),
}

/// The `WHERE` of a list, its values bound in order.
#[derive(Default)]
pub struct Where {
    clauses: Vec<String>,
    args: Vec<Arg>,
}

impl Where {
    /// Adds `clause`, whose `{}` are replaced by the placeholders of `args` in order.
    pub fn push(&mut self, clause: &str, args: Vec<Arg>) {
        let mut text = String::new();
        let mut pieces = clause.split("{}");
        if let Some(first) = pieces.next() {
            text.push_str(first);
        }
        for (piece, arg) in pieces.zip(args) {
            self.args.push(arg);
            text.push_str(&format!("${}", self.args.len()));
            text.push_str(piece);
        }
        self.clauses.push(text);
    }

    pub fn eq_int(&mut self, query: &ListQuery, key: &str, column: &str) -> Result<(), ApiError> {
        if let Some(v) = query.int(key)? {
            self.push(&format!("{column} = {{}}"), vec![Arg::Int(v)]);
        }
        Ok(())
    }

    pub fn eq_text(&mut self, query: &ListQuery, key: &str, column: &str) -> Result<(), ApiError> {
        if let Some(v) = query.text(key)? {
            self.push(&format!("{column} = {{}}"), vec![Arg::Text(v)]);
        }
        Ok(())
    }

    /// `from` / `to` filters (Unix seconds, inclusive) on a millisecond `column`.
    pub fn time_range(&mut self, query: &ListQuery, column: &str) -> Result<(), ApiError> {
        if let Some(from) = query.int("from")? {
            self.push(&format!("{column} >= {{}}"), vec![Arg::Int(from.saturating_mul(1000))]);
        }
        if let Some(to) = query.int("to")? {
            self.push(&format!("{column} < {{}}"), vec![Arg::Int(to.saturating_add(1).saturating_mul(1000))]);
        }
        Ok(())
    }

    fn sql(&self) -> String {
        if self.clauses.is_empty() { String::new() } else { format!(" WHERE {}", self.clauses.join(" AND ")) }
    }

    fn bind<'q, O>(
        &self,
        mut query: sqlx::query::QueryAs<'q, sqlx::Any, O, sqlx::any::AnyArguments>,
    ) -> sqlx::query::QueryAs<'q, sqlx::Any, O, sqlx::any::AnyArguments> {
        for arg in &self.args {
            query = match arg {
                Arg::Int(v) => query.bind(*v),
                Arg::Text(v) => query.bind(v.clone()),
            };
        }
        query
    }

    /// One page of `select` (a `SELECT … FROM …` without `WHERE`) and the total.
    pub async fn page<T>(&self, db: &Db, select: &str, query: &ListQuery) -> Result<(Vec<T>, i64), ApiError>
    where
        T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
    {
        // Counted over the filtered select itself: its columns may hold subselects with a FROM
        // of their own, so the outer FROM cannot be found by searching the text.
        let count_sql = format!("SELECT COUNT(*) AS n FROM ({select}{}) AS counted", self.sql());
        let total: (i64,) = self.bind(sqlx::query_as(sqlx::AssertSqlSafe(count_sql))).fetch_one(db.pool()).await?;
        Ok((self.fetch(db, select, query).await?, total.0))
    }

    /// The rows of `select` the query's order, offset and limit pick (no count).
    pub async fn fetch<T>(&self, db: &Db, select: &str, query: &ListQuery) -> Result<Vec<T>, ApiError>
    where
        T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
    {
        let (column, desc) = query.order;
        let direction = if desc { "DESC" } else { "ASC" };
        let sql = format!(
            "{select}{} ORDER BY {column} {direction}, 1 {direction} LIMIT {} OFFSET {}",
            self.sql(),
            query.limit,
            query.offset
        );
        Ok(self.bind(sqlx::query_as(sqlx::AssertSqlSafe(sql))).fetch_all(db.pool()).await?)
    }
}

/// One list resource of the console: who may read it (`{resource}.list` / `{resource}.export` in
/// the trail), the fields it sorts by (to their columns), its select and its filters.
pub struct Listing {
    pub resource: &'static str,
    pub permission: &'static str,
    pub sorts: &'static [(&'static str, &'static str)],
    /// The sort when none is asked, newest first.
    pub default_sort: &'static str,
    /// `SELECT … FROM …` without `WHERE`.
    pub select: &'static str,
    pub filters: fn(&ListQuery) -> Result<Where, ApiError>,
}

impl Listing {
    /// The permission checked (a refusal audited), then one page of rows and the total.
    pub async fn rows<R>(&self, staff: &Staff, raw: Option<&str>) -> Result<(ListQuery, Vec<R>, i64), ApiError>
    where
        R: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
    {
        staff.require(self.permission, &format!("{}.list", self.resource), None).await?;
        let query = ListQuery::parse(raw, self.sorts, self.default_sort)?;
        let (rows, total) = (self.filters)(&query)?.page(staff.state().db(), self.select, &query).await?;
        Ok((query, rows, total))
    }

    /// `GET …/{resource}`: a page of rows shown as `view` shows each, with `Content-Range`.
    pub async fn page<R, V: Serialize>(&self, staff: Staff, raw: Option<String>, view: impl Fn(R) -> V) -> Response
    where
        R: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
    {
        let result = async {
            let (query, rows, total) = self.rows::<R>(&staff, raw.as_deref()).await?;
            let items: Vec<V> = rows.into_iter().map(view).collect();
            Ok(answer(self.resource, &query, total, &items))
        }
        .await;
        staff.answer(result)
    }

    /// `GET …/{resource}/export.csv`: every matching row (up to [`EXPORT_MAX`]), `header` then
    /// one line per row of the fields `line` gives.
    pub async fn export<R>(
        &self,
        staff: Staff,
        raw: Option<String>,
        header: &[&str],
        line: impl Fn(R) -> Vec<String>,
    ) -> Response
    where
        R: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
    {
        let result = async {
            staff.require(self.permission, &format!("{}.export", self.resource), None).await?;
            let query = ListQuery::parse(raw.as_deref(), self.sorts, self.default_sort)?.all();
            let rows: Vec<R> = (self.filters)(&query)?.fetch(staff.state().db(), self.select, &query).await?;
            let mut out = csv_line(header);
            for row in rows {
                out.push_str(&csv_line(line(row)));
            }
            Ok(csv(self.resource, out))
        }
        .await;
        staff.answer(result)
    }
}

/// Filters on the player's `user_id` alone.
pub fn by_user(query: &ListQuery) -> Result<Where, ApiError> {
    let mut w = Where::default();
    w.eq_int(query, "user_id", "user_id")?;
    Ok(w)
}

/// The list's answer: the items and their `Content-Range`.
pub fn answer<T: Serialize>(resource: &str, query: &ListQuery, total: i64, items: &[T]) -> Response {
    let len = i64::try_from(items.len()).unwrap_or(0);
    let range = if len == 0 {
        format!("{resource} */{total}")
    } else {
        format!("{resource} {}-{}/{total}", query.offset, query.offset + len - 1)
    };
    let mut response = Json(items).into_response();
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&range) {
        headers.insert(header::CONTENT_RANGE, value);
    }
    headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, HeaderValue::from_static("Content-Range"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    const SORTS: &[(&str, &str)] = &[("id", "u.id"), ("created_at", "u.reg_time")];

    #[test]
    fn the_simple_rest_parameters_parse() {
        let q = ListQuery::parse(
            Some("sort=%5B%22created_at%22%2C%22ASC%22%5D&range=%5B10%2C19%5D&filter=%7B%22q%22%3A%22x%22%7D"),
            SORTS,
            "id",
        )
        .unwrap();
        assert_eq!(q.order, ("u.reg_time", false));
        assert_eq!((q.offset, q.limit), (10, 10));
        assert_eq!(q.text("q").unwrap().as_deref(), Some("x"));
        let q = ListQuery::parse(None, SORTS, "id").unwrap();
        assert_eq!((q.order, q.offset, q.limit), (("u.id", true), 0, 25));
    }

    #[test]
    fn bad_parameters_are_refused() {
        for raw in
            ["sort=%5B%22password%22%2C%22ASC%22%5D", "sort=x", "range=%5B5%2C1%5D", "filter=%5B%5D", "filter=%7B"]
        {
            assert!(ListQuery::parse(Some(raw), SORTS, "id").is_err(), "{raw}");
        }
    }

    #[test]
    fn placeholders_are_numbered_in_order() {
        let mut w = Where::default();
        w.push("a = {}", vec![Arg::Int(1)]);
        w.push("(b = {} OR c LIKE {})", vec![Arg::Text("x".into()), Arg::Text("y%".into())]);
        assert_eq!(w.sql(), " WHERE a = $1 AND (b = $2 OR c LIKE $3)");
    }
}
