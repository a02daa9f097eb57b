import { useParams } from 'react-router';
import { useRouteHandle } from '@/lib/route-handle';
import { PaymentPageView } from '@/components/layout/system-page-view';
import { useAccount } from '@/features/account';
import screens from '@/components/screens.module.css';
import { Receipt } from './receipt';

/** /cashier/pay{success,fail,pending,…}[/{transaction}]: the result page with the payment it is about. */
export function PaymentResultPage() {
  const handle = useRouteHandle();
  const { transaction } = useParams();
  const account = useAccount();
  const type = handle?.payment ?? 'paypending';
  return (
    <div className={screens.page} data-testid={`payment-result-${type}`}>
      <PaymentPageView type={type} />
      {transaction && account && <Receipt id={transaction} poll />}
    </div>
  );
}
