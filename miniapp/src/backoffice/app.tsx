// The back office: react-admin over `/backoffice/api`, served by croupier-server at `/backoffice`
// (a second entry of the client build; the player app never imports any of it).
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import CasinoIcon from '@mui/icons-material/Casino';
import FeedbackIcon from '@mui/icons-material/Feedback';
import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import GppBadIcon from '@mui/icons-material/GppBad';
import HistoryIcon from '@mui/icons-material/History';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import PaymentsIcon from '@mui/icons-material/Payments';
import PeopleIcon from '@mui/icons-material/People';
import PriceChangeIcon from '@mui/icons-material/PriceChange';
import RedeemIcon from '@mui/icons-material/Redeem';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SavingsIcon from '@mui/icons-material/Savings';
import SportsSoccerIcon from '@mui/icons-material/SportsSoccer';
import StarsIcon from '@mui/icons-material/Stars';
import { useState } from 'react';
import { BrowserRouter, Route } from 'react-router';
import { Admin, CustomRoutes, Resource, localStorageStore } from 'react-admin';
import { BackofficeLayout } from './layout';
import { createAuthProvider } from './lib/auth-provider';
import { createDataProvider } from './lib/data-provider';
import { createI18nProvider } from './i18n/provider';
import { AuditList, RefusalList } from './pages/audit';
import { ContentPage } from './pages/content';
import { CorrectionList } from './pages/corrections';
import { DepositList } from './pages/deposits';
import { CampaignCreate, CampaignEdit, CampaignList } from './pages/campaigns';
import { CashbackList, FeedbackList, JackpotList, TournamentList } from './pages/feature-admin';
import { LoginPage } from './pages/login-page';
import { LoyaltyPage } from './pages/loyalty';
import { OperatorCreate, OperatorEdit, OperatorList } from './pages/operators';
import { PlayerList, PlayerShow } from './pages/players';
import { ReportsPage } from './pages/reports';
import { RoundList } from './pages/rounds';
import { ProviderBetList } from './pages/provider-bets';
import { SportsbookLimitsPage, SportsbookMarketList, SportsbookMarketShow } from './pages/sportsbook';
import { SystemPage } from './pages/system';
import { WithdrawalList, WithdrawalShow } from './pages/withdrawals';

/** The console's providers, made once per mounted console (tests mount several). */
function createProviders() {
  const store = localStorageStore(undefined, 'croupier-backoffice');
  const i18nProvider = createI18nProvider(store.getItem<'en' | 'fr'>('locale') ?? undefined);
  const locale = () => i18nProvider.getLocale();
  return { store, i18nProvider, dataProvider: createDataProvider(locale), authProvider: createAuthProvider(locale) };
}

/**
 * react-admin's own router would be a HashRouter (`/backoffice#/players`); the console has real
 * paths under `/backoffice` (the server answers every one with backoffice.html), so it runs in a
 * BrowserRouter whose basename is `/backoffice`, and react-admin's links are relative to it.
 */
export function BackofficeApp() {
  return (
    <BrowserRouter basename="/backoffice">
      <BackofficeAdmin />
    </BrowserRouter>
  );
}

function BackofficeAdmin() {
  const [{ store, i18nProvider, dataProvider, authProvider }] = useState(createProviders);
  return (
    <Admin
      title="bo.app_title"
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      store={store}
      loginPage={LoginPage}
      layout={BackofficeLayout}
      requireAuth
      disableTelemetry
    >
      <Resource name="players" list={PlayerList} show={PlayerShow} icon={PeopleIcon} recordRepresentation="login" />
      <Resource name="withdrawals" list={WithdrawalList} show={WithdrawalShow} icon={AccountBalanceWalletIcon} />
      <Resource name="corrections" list={CorrectionList} icon={PriceChangeIcon} />
      <Resource name="deposits" list={DepositList} icon={PaymentsIcon} />
      <Resource name="rounds" list={RoundList} icon={CasinoIcon} />
      <Resource name="audit" list={AuditList} icon={HistoryIcon} />
      <Resource name="refusals" list={RefusalList} icon={GppBadIcon} />
      <Resource name="operators" list={OperatorList} create={OperatorCreate} edit={OperatorEdit} icon={AdminPanelSettingsIcon} />
      <Resource name="campaigns" list={CampaignList} create={CampaignCreate} edit={CampaignEdit} icon={LocalOfferIcon} />
      <Resource name="tournaments" list={TournamentList} icon={EmojiEventsIcon} />
      <Resource name="jackpots" list={JackpotList} icon={StarsIcon} />
      <Resource name="cashbacks" list={CashbackList} icon={SavingsIcon} />
      <Resource name="feedback" list={FeedbackList} icon={FeedbackIcon} />
      <Resource name="sportsbook" list={SportsbookMarketList} show={SportsbookMarketShow} icon={SportsSoccerIcon} />
      <Resource name="provider_bets" list={ProviderBetList} icon={ReceiptLongIcon} />
      <Resource name="ledger" />
      <Resource name="sessions" />
      <Resource name="notes" />
      <Resource name="bonuses" icon={RedeemIcon} />
      <CustomRoutes>
        <Route path="/reports" element={<ReportsPage />} />
        <Route path="/system" element={<SystemPage />} />
        <Route path="/content/*" element={<ContentPage />} />
        <Route path="/loyalty" element={<LoyaltyPage />} />
        <Route path="/sportsbook-limits" element={<SportsbookLimitsPage />} />
      </CustomRoutes>
    </Admin>
  );
}
