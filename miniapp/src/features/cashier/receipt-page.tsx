import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import screens from '@/components/screens.module.css';
import { CashierFrame } from './cashier-nav';
import { Receipt } from './receipt';

/** /cashier/receipt?id={payment}. */
export function ReceiptPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? params.get('transaction') ?? '';
  return (
    <CashierFrame title={t('pages.cashierReceipt')}>
      {id ? <Receipt id={id} /> : <p className={screens.notice}>{t('cashier.noReceipt')}</p>}
    </CashierFrame>
  );
}
