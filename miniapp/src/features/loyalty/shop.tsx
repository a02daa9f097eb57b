// The loyalty shop (`/loyalty/shop`) and its dialogs (SPEC §2: loyalty shop confirm, buy,
// insufficient funds). Test ids: shop-product, shop-buy, shop-confirm-dialog, shop-confirm-yes,
// shop-confirm-no, shop-success, shop-insufficient, shop-dialog-close.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { useSiteConfig } from '@/config/site-config';
import { accountKeys, useAccount } from '@/features/account';
import { useLoyaltyContent } from '@/features/content';
import { ApiError } from '@/lib/api/client';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { i18n } from '@/lib/i18n';
import { useRouteHandle } from '@/lib/route-handle';
import { newRequestId } from '@/lib/request-id';
import { buyProduct, getProducts, loyaltyKeys, type Product } from './api/loyalty';
import styles from './loyalty.module.css';
import { useLoyaltyInfo } from './use-loyalty';

function Notice({ testId, title, text }: { testId: string; title: string; text: string }) {
  return (
    <div className={styles.dialog} data-testid={testId}>
      <h2>{title}</h2>
      <p>{text}</p>
      <div className={styles.actions}>
        <Button data-testid="shop-dialog-close" data-autofocus onClick={() => dialogs.closeTop()}>
          {i18n.t('loyalty.shop.ok')}
        </Button>
      </div>
    </div>
  );
}

/** SPEC §2 insufficient-funds dialog. */
export function openInsufficient(product: Product, points: number, alias: string): void {
  dialogs.open({
    name: 'loyaltyInsufficientFunds',
    label: i18n.t('loyalty.shop.insufficientTitle'),
    render: () => (
      <Notice
        testId="shop-insufficient"
        title={i18n.t('loyalty.shop.insufficientTitle')}
        text={i18n.t('loyalty.shop.insufficientText', { price: product.price, points, missing: product.price - points, alias })}
      />
    ),
  });
}

function openBought(product: Product, points: number, alias: string): void {
  dialogs.open({
    name: 'loyaltyBuy',
    label: i18n.t('loyalty.shop.boughtTitle'),
    render: () => (
      <Notice
        testId="shop-success"
        title={i18n.t('loyalty.shop.boughtTitle')}
        text={i18n.t('loyalty.shop.boughtText', { title: product.title, points, alias })}
      />
    ),
  });
}

/** The confirm dialog's body: one purchase attempt, one request id, whatever the presses. */
export function BuyConfirm({ product, points, alias, close }: { product: Product; points: number; alias: string; close: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [requestId] = useState(newRequestId);
  // A second press before the first answer re-renders sends nothing (the server would answer
  // the same purchase for the same request id anyway).
  const sent = useRef(false);
  const buy = useMutation({
    mutationFn: () => buyProduct(product.id, requestId),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: loyaltyKeys.all });
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
      close();
      openBought(product, answer.points, alias);
    },
    onError: (error) => {
      close();
      const code = error instanceof ApiError ? error.fieldErrors.product_id?.[0] : undefined;
      if (code === 'INSUFFICIENT_POINTS') openInsufficient(product, points, alias);
      else dialogs.open({
        name: 'loyaltyBuy',
        label: t('loyalty.shop.failedTitle'),
        render: () => <Notice testId="shop-failed" title={t('loyalty.shop.failedTitle')} text={error instanceof ApiError && error.message ? error.message : t('loyalty.shop.failed')} />,
      });
    },
  });
  return (
    <div className={styles.dialog} data-testid="shop-confirm-dialog">
      <h2>{t('loyalty.shop.confirmTitle')}</h2>
      <p>{t('loyalty.shop.confirmText', { title: product.title, price: product.price, after: points - product.price, alias })}</p>
      <div className={styles.actions}>
        <Button data-testid="shop-confirm-yes" disabled={buy.isPending} onClick={() => {
            if (sent.current) return;
            sent.current = true;
            buy.mutate();
          }}>
          {t('loyalty.shop.confirmYes')}
        </Button>
        <Button variant="secondary" data-testid="shop-confirm-no" data-autofocus disabled={buy.isPending} onClick={close}>
          {t('loyalty.shop.confirmNo')}
        </Button>
      </div>
    </div>
  );
}

/** Buying: the insufficient-funds dialog when the points are short, else the confirm dialog. */
export function startPurchase(product: Product, points: number, alias: string): void {
  if (product.price > points) {
    openInsufficient(product, points, alias);
    return;
  }
  dialogs.open({
    name: 'loyaltyShopConfirm',
    label: i18n.t('loyalty.shop.confirmTitle'),
    kind: 'confirm',
    render: ({ close }) => <BuyConfirm product={product} points={points} alias={alias} close={() => close({ immediate: true })} />,
  });
}

function reason(product: Product, signedIn: boolean, level: number): string | null {
  if (!signedIn) return i18n.t('loyalty.shop.signIn');
  if (product.stock !== null && product.stock <= 0) return i18n.t('loyalty.shop.soldOut');
  if (level < product.min_level) return i18n.t('loyalty.shop.needsLevel', { level: product.min_level });
  if (!product.available) return i18n.t('loyalty.shop.unavailable');
  return null;
}

/** `/loyalty/shop`. */
export function LoyaltyShopPage() {
  const { t } = useTranslation();
  const account = useAccount();
  const content = useLoyaltyContent();
  const info = useLoyaltyInfo();
  const products = useQuery({
    queryKey: [...loyaltyKeys.products(), account?.uid ?? 0],
    queryFn: ({ signal }) => getProducts({ signal }),
  });
  const alias = info.data?.pointsAlias ?? content.data?.pointsAlias ?? t('loyalty.pointsWord');
  const points = info.data?.points ?? 0;
  const { switches } = useSiteConfig();
  const route = useRouteHandle()?.name;
  if (!switches.loyalty) {
    return (
      <div className={screens.page} data-route={route}>
        <p className={screens.notice} data-testid="loyalty-off">
          {t('loyalty.off')}
        </p>
      </div>
    );
  }
  return (
    <div className={screens.page} data-testid="loyalty-shop" data-route={route}>
      <h1 className={screens.title}>{t('pages.loyaltyShop')}</h1>
      {content.data?.shopBanner && <img className={styles.banner} src={content.data.shopBanner} alt={content.data.title ?? ''} />}
      {info.data && (
        <p data-testid="loyalty-points" data-points={points}>
          {t('loyalty.points', { count: points, alias })}
        </p>
      )}
      {products.isPending && <Spinner label={t('app.loading')} />}
      {products.isError && <p className={screens.alert}>{t('loyalty.failed')}</p>}
      {products.data?.items.length === 0 && <p className={screens.notice}>{t('loyalty.shop.empty')}</p>}
      {products.data && (
        <ul className={styles.grid}>
          {products.data.items.map((product) => {
            const why = reason(product, account !== undefined, info.data?.level ?? 0);
            return (
              <li key={product.id} className={styles.tile} data-testid="shop-product" data-sysname={product.sysname} data-available={why === null}>
                {product.image && <img className={styles.tileImage} src={product.image} alt="" loading="lazy" />}
                <strong>{product.title}</strong>
                {product.description && <span>{product.description}</span>}
                <span className={styles.price}>{t('loyalty.price', { count: product.price, alias })}</span>
                {why && <span className={screens.muted}>{why}</span>}
                <Button data-testid="shop-buy" disabled={why !== null || info.data === undefined} onClick={() => { startPurchase(product, points, alias); }}>
                  {t('loyalty.shop.buy')}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
