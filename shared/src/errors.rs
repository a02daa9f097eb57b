//! The error catalogue of SPEC §8: one enum, its HTTP status and its localized default message.
//!
//! Status choices: SPEC's client treats *any* HTTP 403 as the fatal "forbidden" page and 503 as
//! maintenance, so only the errors that mean exactly that use those codes. Business refusals
//! (limits, missing profile data, verification needed…) are 409, field validation is 422,
//! malformed requests are 400, failures of an upstream payment party are 502.

use crate::Locale;
use serde::{Deserialize, Serialize};

macro_rules! catalogue {
    ($( $name:ident = $status:literal, $en:literal, $fr:literal; )+) => {
        /// Every server error type the client knows (SPEC §8). Serialized as its name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum ErrorType { $( $name, )+ }

        impl ErrorType {
            pub const ALL: &'static [ErrorType] = &[ $( ErrorType::$name, )+ ];

            pub fn name(self) -> &'static str {
                match self { $( ErrorType::$name => stringify!($name), )+ }
            }

            pub fn http_status(self) -> u16 {
                match self { $( ErrorType::$name => $status, )+ }
            }

            /// The default message shown to a player in their language.
            pub fn message(self, locale: Locale) -> &'static str {
                match (self, locale) {
                    $( (ErrorType::$name, Locale::En) => $en,
                       (ErrorType::$name, Locale::Fr) => $fr, )+
                }
            }
        }
    };
}

catalogue! {
    UnknownErrorException = 500, "Something went wrong. Please try again.", "Une erreur s'est produite. Veuillez réessayer.";
    ApplicationDisabledException = 503, "The site is temporarily disabled.", "Le site est temporairement désactivé.";
    MethodNotFoundException = 404, "This method does not exist.", "Cette méthode n'existe pas.";
    AuthorizationException = 401, "Please sign in to continue.", "Veuillez vous connecter pour continuer.";
    InvalidRequestException = 400, "The request is invalid.", "La requête est invalide.";
    InternalServerErrorException = 500, "An internal error occurred. Please try again later.", "Une erreur interne s'est produite. Veuillez réessayer plus tard.";
    AccessDeniedException = 403, "Access denied.", "Accès refusé.";
    UserDeletedException = 401, "This account has been deleted.", "Ce compte a été supprimé.";
    UserBannedException = 403, "This account has been blocked.", "Ce compte a été bloqué.";
    UserNeedDepositException = 409, "Make a deposit to continue.", "Effectuez un dépôt pour continuer.";
    UserNeedProfileDataException = 409, "Please complete your profile first.", "Veuillez d'abord compléter votre profil.";
    UserNeedConfirmContactException = 409, "Please confirm your contact details first.", "Veuillez d'abord confirmer vos coordonnées.";
    ApplicationUnavailableException = 503, "The site is under maintenance. Please come back soon.", "Le site est en maintenance. Revenez bientôt.";
    InvalidParameterException = 422, "Some fields are invalid.", "Certains champs sont invalides.";
    TooManyRequestsException = 429, "Too many attempts. Please wait and try again.", "Trop de tentatives. Veuillez patienter et réessayer.";
    BillingServiceErrorException = 502, "The payment service returned an error.", "Le service de paiement a renvoyé une erreur.";
    BillingTransactionDeclinedException = 402, "The transaction was declined.", "La transaction a été refusée.";
    BillingUnavailableException = 502, "Payments are temporarily unavailable.", "Les paiements sont temporairement indisponibles.";
    BillingDepositLimitExceededException = 409, "This deposit exceeds your deposit limit.", "Ce dépôt dépasse votre limite de dépôt.";
    WithdrawalDeclinedException = 409, "The withdrawal was declined.", "Le retrait a été refusé.";
    WithdrawalLimitsExceededException = 409, "The amount is outside the withdrawal limits.", "Le montant est en dehors des limites de retrait.";
    WithdrawalLimitsPeriodExceededException = 409, "You have reached the withdrawal limit for this period.", "Vous avez atteint la limite de retrait pour cette période.";
    KycUserProfileException = 409, "Your profile does not match your identity documents.", "Votre profil ne correspond pas à vos pièces d'identité.";
    KycWithdrawalException = 409, "Verify your identity to withdraw.", "Vérifiez votre identité pour effectuer un retrait.";
    StorageQuotaExceededException = 409, "Storage quota exceeded.", "Quota de stockage dépassé.";
    SumsubVerificationRequiredException = 409, "Identity verification is required.", "Une vérification d'identité est requise.";
    RequisitesOnVerificationException = 409, "Your payment details are being verified.", "Vos coordonnées de paiement sont en cours de vérification.";
    RequisitesValidationRequiredException = 409, "Your payment details need to be validated.", "Vos coordonnées de paiement doivent être validées.";
    RequisitesFraudulentException = 409, "These payment details cannot be used.", "Ces coordonnées de paiement ne peuvent pas être utilisées.";
    BonusActiveLimitException = 409, "You already have as many active bonuses as allowed. Finish or remove one first.", "Vous avez déjà le nombre maximal de bonus actifs. Terminez-en ou retirez-en un d'abord.";
    BonusMaxBetExceededException = 409, "While a bonus is being wagered, your bet cannot exceed the bonus's maximum bet.", "Pendant la mise d'un bonus, votre mise ne peut pas dépasser la mise maximale du bonus.";
    BonusBurnConfirmationRequiredException = 409, "Withdrawing now cancels your active bonuses and their balance. Confirm to continue.", "Un retrait maintenant annule vos bonus actifs et leur solde. Confirmez pour continuer.";
    PlayerExcludedException = 409, "Your time-out or self-exclusion is in force: this is not available until it ends.", "Votre pause ou auto-exclusion est en cours : ceci n'est pas disponible avant sa fin.";
    PlayLimitReachedException = 409, "This bet would go over your loss or wager limit.", "Cette mise dépasserait votre limite de pertes ou de mises.";
}

macro_rules! field_codes {
    ($( $name:ident = $code:literal, $en:literal, $fr:literal; )+) => {
        /// Why a field was refused; sent in `error_data` as `{"field":["CODE"]}`.
        /// English texts are SPEC §5's default messages; `$$min$$` / `$$max$$` are placeholders.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum FieldCode { $( #[serde(rename = $code)] $name, )+ }

        impl FieldCode {
            pub const ALL: &'static [FieldCode] = &[ $( FieldCode::$name, )+ ];

            pub fn code(self) -> &'static str {
                match self { $( FieldCode::$name => $code, )+ }
            }

            pub fn template(self, locale: Locale) -> &'static str {
                match (self, locale) {
                    $( (FieldCode::$name, Locale::En) => $en,
                       (FieldCode::$name, Locale::Fr) => $fr, )+
                }
            }
        }
    };
}

field_codes! {
    Required = "REQUIRED", "Field is required", "Champ obligatoire";
    Email = "EMAIL", "Wrong email address", "Adresse e-mail incorrecte";
    MinLength = "MIN_LENGTH", "Min length is $$min$$", "La longueur minimale est de $$min$$";
    MaxLength = "MAX_LENGTH", "Max length is $$max$$", "La longueur maximale est de $$max$$";
    Phone = "PHONE", "Wrong phone number", "Numéro de téléphone incorrect";
    Fakename = "FAKENAME", "Wrong fake name", "Pseudonyme incorrect";
    Password = "PASSWORD", "Wrong password", "Mot de passe incorrect";
    Name = "NAME", "Wrong symbols in name", "Caractères non autorisés dans le nom";
    Address = "ADDRESS", "Wrong address", "Adresse incorrecte";
    Iban = "IBAN", "Wrong iban", "IBAN incorrect";
    SameAs = "SAME_AS", "Same as field", "Doit être identique au champ";
    Regex = "REGEX", "Field regex", "Format du champ incorrect";
    CardNumber = "CARD_NUMBER", "Field Card number", "Numéro de carte incorrect";
    MinValue = "MIN_VALUE", "Min value is $$min$$", "La valeur minimale est de $$min$$";
    MaxValue = "MAX_VALUE", "Max value is $$max$$", "La valeur maximale est de $$max$$";
    Date = "DATE", "Wrong date", "Date incorrecte";
    Unchecked = "UNCHECKED", "unchecked checkbox", "case non cochée";
    Invalid = "INVALID", "Wrong field value", "Valeur du champ incorrecte";
    InvalidEncoding = "INVALID_ENCODING", "Field is not valid UTF-8 text", "Le champ n'est pas un texte UTF-8 valide";
    Duplicate = "DUPLICATE", "Field is given more than once", "Le champ est fourni plusieurs fois";
    Unsupported = "UNSUPPORTED", "Value is not supported", "Valeur non prise en charge";
    Taken = "TAKEN", "Already used by another account", "Déjà utilisé par un autre compte";
    Locked = "LOCKED", "Can no longer be changed", "Ne peut plus être modifié";
    CodeLength = "CODE_LENGTH", "The code must contain 6 digits", "Le code doit contenir 6 chiffres";
    CodeExpired = "CODE_EXPIRED", "Time expired, request a new code", "Délai expiré, demandez un nouveau code";
    CodeInvalid = "CODE_INVALID", "Code invalid", "Code invalide";
    TwoFactorRequired = "TWO_FACTOR_REQUIRED", "Two-factor authentication is enabled: enter the code we sent you", "La double authentification est activée : saisissez le code envoyé";
    AlreadyEnabled = "ALREADY_ENABLED", "Two-factor authentication is already enabled", "La double authentification est déjà activée";
    AlreadyDisabled = "ALREADY_DISABLED", "Two-factor authentication is already disabled", "La double authentification est déjà désactivée";
    ResendTime = "RESEND_TIME", "You can request a new code in $$seconds$$ s", "Vous pourrez demander un nouveau code dans $$seconds$$ s";
    WrongCredentials = "WRONG_CREDENTIALS", "Wrong login or password", "Identifiant ou mot de passe incorrect";
    NotFound = "NOT_FOUND", "Not found", "Introuvable";
    PromoUsed = "PROMO_USED", "You have already used this code", "Vous avez déjà utilisé ce code";
    PromoExpired = "PROMO_EXPIRED", "This code is no longer valid", "Ce code n'est plus valable";
    PromoNotEligible = "PROMO_NOT_ELIGIBLE", "This code is not available for your account", "Ce code n'est pas disponible pour votre compte";
    InsufficientPoints = "INSUFFICIENT_POINTS", "You do not have enough points", "Vous n'avez pas assez de points";
    OddsChanged = "ODDS_CHANGED", "The odds have changed", "Les cotes ont changé";
    MarketSuspended = "MARKET_SUSPENDED", "Betting on this market is suspended", "Les paris sur ce marché sont suspendus";
}

impl FieldCode {
    /// The localized message with `$$name$$` placeholders filled from `params`.
    pub fn message(self, locale: Locale, params: &[(&str, &str)]) -> String {
        let mut text = self.template(locale).to_owned();
        for (name, value) in params {
            text = text.replace(&format!("$${name}$$"), value);
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_holds_every_type_spec_names_once() {
        // SPEC names 29 types; the bonus engine adds three of its own (active limit, maximum bet,
        // burn confirmation) and responsible gaming two (an exclusion in force, a play limit
        // reached), which SPEC's client does not know and shows by their message.
        const OURS: [ErrorType; 5] = [
            ErrorType::BonusActiveLimitException,
            ErrorType::BonusMaxBetExceededException,
            ErrorType::BonusBurnConfirmationRequiredException,
            ErrorType::PlayerExcludedException,
            ErrorType::PlayLimitReachedException,
        ];
        assert_eq!(ErrorType::ALL.len(), 29 + OURS.len());
        assert!(OURS.iter().all(|e| ErrorType::ALL.contains(e)));
        let mut names: Vec<_> = ErrorType::ALL.iter().map(|e| e.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 29 + OURS.len());
        assert!(names.iter().all(|n| n.ends_with("Exception")));
    }

    #[test]
    fn fatal_statuses_are_reserved_for_the_errors_that_mean_them() {
        for e in ErrorType::ALL {
            let status = e.http_status();
            if status == 403 {
                assert!(matches!(e, ErrorType::AccessDeniedException | ErrorType::UserBannedException), "{e:?}");
            }
            if status == 503 {
                assert!(
                    matches!(e, ErrorType::ApplicationDisabledException | ErrorType::ApplicationUnavailableException),
                    "{e:?}"
                );
            }
        }
        assert_eq!(ErrorType::MethodNotFoundException.http_status(), 404);
        assert_eq!(ErrorType::TooManyRequestsException.http_status(), 429);
        assert_eq!(ErrorType::AuthorizationException.http_status(), 401);
    }

    #[test]
    fn every_message_exists_in_both_languages_and_differs() {
        for e in ErrorType::ALL {
            assert!(!e.message(Locale::En).is_empty());
            assert_ne!(e.message(Locale::En), e.message(Locale::Fr), "{e:?}");
        }
        for f in FieldCode::ALL {
            assert_ne!(f.template(Locale::En), f.template(Locale::Fr), "{f:?}");
        }
    }

    #[test]
    fn field_messages_are_specs_defaults_with_placeholders_filled() {
        assert_eq!(FieldCode::Required.message(Locale::En, &[]), "Field is required");
        assert_eq!(FieldCode::MinLength.message(Locale::En, &[("min", "6")]), "Min length is 6");
        assert_eq!(FieldCode::MaxValue.message(Locale::Fr, &[("max", "20")]), "La valeur maximale est de 20");
    }

    #[test]
    fn types_serialize_as_their_names() {
        let json = serde_json::to_string(&ErrorType::UserBannedException).unwrap();
        assert_eq!(json, "\"UserBannedException\"");
        assert_eq!(serde_json::to_string(&FieldCode::MinLength).unwrap(), "\"MIN_LENGTH\"");
    }
}
