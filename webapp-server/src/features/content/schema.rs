//! The content types of the built-in content service: every block of SPEC §3 "Content-driven
//! configuration" and the SEO data, named as SPEC §7's content-service calls name them.
//!
//! A type is a single type (one entry per locale, `GET /cms/api/{singular}`) or a collection
//! (`GET /cms/api/{plural}`), localized (en, fr) or not. The registry only says what the query
//! evaluator and the write checks must know: which attribute paths are components, media or
//! relations (everything else is a scalar or a JSON value), which attributes an entry must have,
//! and which must be unique per locale. Attribute paths are dotted from the entry root, array
//! indices dropped (`footer.columns.links`), as [`super::query::shape_entry`] expects.

use super::query::RelationKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Single,
    Collection,
}

/// What a non-scalar attribute is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attr {
    /// A component, a repeatable component or a dynamic zone: stored inline.
    Component,
    /// An upload file (or a list of them): stored inline as Strapi's file object.
    Media,
    /// Entries of another content type, stored as their ids and joined at read time.
    Relation(&'static str),
}

#[derive(Debug)]
pub struct ContentType {
    /// The singular API id; also the file name of the type in exports (`common.json`).
    pub singular: &'static str,
    /// The plural API id (collections answer under it).
    pub plural: &'static str,
    pub kind: Kind,
    pub localized: bool,
    /// Non-scalar attributes by dotted path.
    pub attributes: &'static [(&'static str, Attr)],
    /// Attributes every entry must have (non-empty).
    pub required: &'static [&'static str],
    /// An attribute whose value is unique among the entries of one locale.
    pub unique: Option<&'static str>,
    /// Top-level attributes that take one of a fixed list of values (Strapi's enumerations).
    pub enums: &'static [(&'static str, &'static [&'static str])],
}

impl ContentType {
    /// What the attribute at `path` is, for the query evaluator. A path through a relation
    /// continues in the related type's schema (`popupFallbacks.image` is a popup's image).
    pub fn kind_of(&self, path: &str) -> RelationKind {
        match self.attr(path) {
            Some(Attr::Component) => RelationKind::Component,
            Some(Attr::Media) => RelationKind::Media,
            Some(Attr::Relation(_)) => RelationKind::Relation,
            None => self
                .attributes
                .iter()
                .find_map(|(prefix, attr)| match (attr, path.strip_prefix(prefix)?.strip_prefix('.')) {
                    (Attr::Relation(target), Some(rest)) => by_singular(target).map(|t| t.kind_of(rest)),
                    _ => None,
                })
                .unwrap_or(RelationKind::Scalar),
        }
    }

    pub fn attr(&self, path: &str) -> Option<Attr> {
        self.attributes.iter().find(|(p, _)| *p == path).map(|(_, a)| *a)
    }

    /// The API id the type answers under: plural for collections, singular for single types.
    pub fn api_id(&self) -> &'static str {
        match self.kind {
            Kind::Single => self.singular,
            Kind::Collection => self.plural,
        }
    }
}

use Attr::{Component as C, Media as M};

const fn single(singular: &'static str, attributes: &'static [(&'static str, Attr)]) -> ContentType {
    ContentType {
        singular,
        plural: singular,
        kind: Kind::Single,
        localized: true,
        attributes,
        required: &[],
        unique: None,
        enums: &[],
    }
}

const fn collection(
    singular: &'static str,
    plural: &'static str,
    attributes: &'static [(&'static str, Attr)],
    required: &'static [&'static str],
    unique: Option<&'static str>,
) -> ContentType {
    ContentType { singular, plural, kind: Kind::Collection, localized: true, attributes, required, unique, enums: &[] }
}

/// Every content type, in the order exports and imports walk them (targets of relations first).
pub static TYPES: &[ContentType] = &[
    // A popup's kind, size and audience are the client's `DialogKind`, `DialogSize` and audience.
    ContentType {
        enums: &[
            ("kind", &["popup", "confirm", "curtain"]),
            ("size", &["full", "big", "custom"]),
            ("audience", &["guest", "player", "all"]),
        ],
        ..collection("popup", "popups", &[("image", M)], &["sysname", "title"], Some("sysname"))
    },
    // SEO settings (SPEC §3): titles, robots rules, canonical, organization, product, replacements.
    single(
        "settings-seo",
        &[
            ("ogImage", M),
            ("canonical", C),
            ("robots", C),
            ("replacements", C),
            ("organization", C),
            ("organization.logo", M),
            ("organization.contactPoint", C),
            ("product", C),
            ("product.image", M),
        ],
    ),
    // Site config (SPEC §3): logos, feature switches, balance refresh, validator, loader, popup fallbacks.
    ContentType {
        attributes: &[
            ("logo", M),
            ("logoMobile", M),
            ("switches", C),
            ("balanceRefresh", C),
            ("validator", C),
            ("validator.phoneMasks", C),
            ("loader", C),
            ("loader.image", M),
            ("popupFallbacks", Attr::Relation("popup")),
        ],
        ..single("prazer-config", &[])
    },
    single(
        "cashier-config",
        &[
            ("amountList", C),
            ("currencies", C),
            ("registrationHint", C),
            ("buttonIcon", M),
            ("exceptionButtons", C),
            ("exceptionButtons.contactConfirmation", C),
            ("exceptionButtons.kycWithdrawal", C),
        ],
    ),
    single("meta-data-tool", &[("meta", C)]),
    single(
        "games-config",
        &[
            ("game", C),
            ("types", C),
            ("types.icon", M),
            ("categories", C),
            ("categories.icon", M),
            ("imageKeys", C),
            ("demoPopup", C),
        ],
    ),
    single("search-config", &[("popular", C)]),
    single("loyalty", &[("notification", C), ("levels", C), ("levels.image", M), ("shopBanner", M)]),
    single(
        "forms-config",
        &[
            ("signIn", C),
            ("signIn.fields", C),
            ("signUp", C),
            ("signUp.fields", C),
            ("restore", C),
            ("restore.fields", C),
            ("profile", C),
            ("profile.fields", C),
            ("contacts", C),
            ("contacts.fields", C),
        ],
    ),
    single("auth-config", &[("registration", C), ("terms", C), ("socialProviders", C), ("socialProviders.icon", M)]),
    single(
        "common",
        &[
            ("menu", C),
            ("mobileBottomMenu", C),
            ("footer", C),
            ("footer.columns", C),
            ("footer.columns.links", C),
            ("footer.licenses", C),
            ("footer.licenses.image", M),
            ("paymentMethods", C),
            ("paymentMethods.icon", M),
            ("confirmHint", C),
            ("offersSwitchers", C),
            ("customCode", C),
            ("flagIcons", C),
            ("flagIcons.icon", M),
            ("ratingSites", C),
            ("ratingSites.logo", M),
        ],
    ),
    ContentType { localized: false, ..single("web-setting", &[("favicons", C), ("favicons.file", M)]) },
    single("menu-banner", &[("image", M), ("publicImage", M)]),
    single("auth-banner", &[("image_360_520", M), ("image_735_240", M)]),
    collection("domain-seo", "domain-seos", &[], &["host"], Some("host")),
    collection("banner", "banners", &[("image", M), ("imageMobile", M)], &["title"], None),
    collection(
        "page-seo",
        "page-seos",
        &[
            ("openGraph", C),
            ("openGraph.image", M),
            ("meta", C),
            ("organization", C),
            ("organization.logo", M),
            ("organization.contactPoint", C),
            ("product", C),
            ("product.image", M),
            ("schemaFaq", C),
            ("schemaArticle", C),
            ("schemaArticle.image", M),
        ],
        &["url"],
        Some("url"),
    ),
    collection("page", "pages", &[("cover", M), ("seo", C), ("seo.metaImage", M)], &["slug", "title"], Some("slug")),
    ContentType {
        localized: false,
        ..collection("redirect", "redirects", &[], &["from_url", "to_url"], Some("from_url"))
    },
];

/// The type answering under the API id `api_id`.
pub fn by_api_id(api_id: &str) -> Option<&'static ContentType> {
    TYPES.iter().find(|t| t.api_id() == api_id)
}

/// The type whose singular id is `singular`.
pub fn by_singular(singular: &str) -> Option<&'static ContentType> {
    TYPES.iter().find(|t| t.singular == singular)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_ids_are_unique_and_relations_point_at_known_types() {
        for (i, t) in TYPES.iter().enumerate() {
            assert!(TYPES[..i].iter().all(|o| o.api_id() != t.api_id() && o.singular != t.singular), "{}", t.singular);
            for (path, attr) in t.attributes {
                if let Attr::Relation(target) = attr {
                    assert!(!path.contains('.'), "{}.{path}: relations are top-level attributes", t.singular);
                    let at = TYPES.iter().position(|o| o.singular == *target);
                    assert!(at.is_some_and(|at| at < i), "{}.{path} must point at an earlier type", t.singular);
                }
                if let Some((parent, _)) = path.rsplit_once('.') {
                    assert_eq!(t.attr(parent), Some(Attr::Component), "{}.{path}: parent is a component", t.singular);
                }
            }
        }
    }

    #[test]
    fn attribute_kinds_follow_the_registry() {
        let common = by_api_id("common").unwrap();
        assert_eq!(common.kind_of("footer.columns.links"), RelationKind::Component);
        assert_eq!(common.kind_of("paymentMethods.icon"), RelationKind::Media);
        assert_eq!(common.kind_of("localeDetectStrategy"), RelationKind::Scalar);
        let config = by_api_id("prazer-config").unwrap();
        assert_eq!(config.kind_of("popupFallbacks"), RelationKind::Relation);
        assert_eq!(config.kind_of("popupFallbacks.image"), RelationKind::Media);
        assert_eq!(config.kind_of("popupFallbacks.title"), RelationKind::Scalar);
        assert!(by_api_id("pages").is_some() && by_api_id("page").is_none());
    }
}
