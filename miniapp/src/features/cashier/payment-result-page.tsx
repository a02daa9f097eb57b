import { useParams } from 'react-router';
import { useRouteHandle } from '@/app/route-handle';
import { PaymentPageView } from '@/app/routes/system-page-view';
import { useAccount } from '@/features/auth/api/get-account-info';
import screens from '@/features/screens/screens.module.css';
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
