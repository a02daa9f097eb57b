import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { cashierKeys, getBanks } from './api';

interface RequisiteFieldProps {
  method: string;
  field: string;
  value: string;
  onValueChange: (value: string) => void;
  error: string | undefined;
}

/**
 * One requisite of a payment method: the `bank` requisite is a choice among the provider's banks
 * for the player's currency and country (`cashier.getbanks`); the others are typed.
 */
export function RequisiteField({ method, field, value, onValueChange, error }: RequisiteFieldProps) {
  const { t } = useTranslation();
  const banks = useQuery({
    queryKey: cashierKeys.banks(method),
    queryFn: ({ signal }) => getBanks(method, { signal }),
    enabled: field === 'bank',
    staleTime: 5 * 60_000,
  });
  const label = t(`cashier.requisite.${field as 'bank'}`, { defaultValue: field });
  if (field !== 'bank') return <TextField label={label} name={field} value={value} onValueChange={onValueChange} error={error} />;
  const options = [{ value: '', label: banks.isPending ? t('app.loading') : t('cashier.chooseBank') }, ...(banks.data ?? []).map((bank) => ({ value: bank.id, label: bank.name }))];
  return (
    <SelectField
      label={label}
      name={field}
      value={value}
      options={options}
      onValueChange={onValueChange}
      error={error ?? (banks.data?.length === 0 ? t('cashier.noBank') : undefined)}
    />
  );
}
