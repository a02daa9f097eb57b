import { useRouteHandle } from '../route-handle';
import { PaymentPageView } from './system-page-view';

/** /cashier/pay{success,fail,pending,cancel,mobile,newwindow}[/{transaction}]. */
export function PaymentResultPage() {
  const handle = useRouteHandle();
  return <PaymentPageView type={handle?.payment ?? 'paypending'} />;
}
