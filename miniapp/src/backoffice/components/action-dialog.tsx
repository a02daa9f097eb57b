// One dialog for every operator action that needs a reason (ban, end sessions, withdrawal
// transitions, correction decisions, maintenance...): a form with the action's own inputs and the
// reason, submitted with Enter, closed with Escape; a refusal's field errors land on the fields and
// its message in the notification.
import { useState, type ReactElement, type ReactNode } from 'react';
import { Alert, Button as MuiButton, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import {
  Button,
  Form,
  TextInput,
  maxLength,
  required,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin';
import type { ErrorBody, FieldValues } from '../lib/http';

export const MAX_REASON = 500;
export const reasonValidators = [required(), maxLength(MAX_REASON)];

export interface ActionDialogProps {
  /** Translation key of the button and the dialog's confirm button. */
  label: string;
  /** Translation key of the dialog's title; `label` when absent. */
  title?: string;
  icon?: ReactElement;
  /** The action's own inputs, above the reason. */
  children?: ReactNode;
  defaultValues?: FieldValues;
  /** Without the reason input (an action whose body has none). */
  noReason?: boolean;
  /** Does the action; throws the data provider's HttpError when the server refuses. */
  onSubmit: (values: FieldValues) => Promise<unknown>;
  /** Translation key of the notification on success, or one chosen from the action's answer. */
  success: string | ((result: unknown) => string);
  testId?: string;
  disabled?: boolean;
  color?: 'primary' | 'secondary' | 'error' | 'inherit';
}

interface Refusal {
  message?: string;
  body?: Partial<ErrorBody> | null;
}

export function ActionDialogButton({
  label,
  title,
  icon,
  children,
  defaultValues,
  noReason,
  onSubmit,
  success,
  testId,
  disabled,
  color = 'primary',
}: ActionDialogProps) {
  const [open, setOpen] = useState(false);
  // Refusals of what the form has no field for (four eyes' `approver`, a withdrawal's `state`).
  const [refusals, setRefusals] = useState<string[]>([]);
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();

  // One request at a time: a second click while the first is on its way would send the action
  // twice (a correction, a payout step).
  const [busy, setBusy] = useState(false);

  const submit = async (values: FieldValues) => {
    if (busy) return undefined;
    let result: unknown;
    setRefusals([]);
    setBusy(true);
    try {
      result = await onSubmit(values);
    } catch (error) {
      const refusal = error as Refusal;
      notify(refusal.message ?? 'ra.notification.http_error', { type: 'error' });
      const errors = refusal.body?.errors ?? {};
      setRefusals(Object.entries(errors).filter(([field]) => !(field in values)).map(([, key]) => key));
      return Object.keys(errors).length > 0 ? errors : undefined;
    } finally {
      setBusy(false);
    }
    setOpen(false);
    notify(typeof success === 'function' ? success(result) : success, { type: 'success' });
    refresh();
    return undefined;
  };

  return (
    <>
      <Button
        label={label}
        onClick={() => {
          setOpen(true);
        }}
        disabled={disabled ?? false}
        color={color}
        {...(testId ? { 'data-testid': testId } : {})}
      >
        {icon}
      </Button>
      <Dialog
        open={open}
        onClose={() => {
          setOpen(false);
          setRefusals([]);
        }}
        fullWidth
        maxWidth="sm"
        aria-labelledby={testId ? `${testId}-title` : undefined}
      >
        <Form onSubmit={submit} {...(defaultValues ? { defaultValues } : {})}>
          <DialogTitle {...(testId ? { id: `${testId}-title` } : {})}>{translate(title ?? label)}</DialogTitle>
          <DialogContent>
            {refusals.map((key) => (
              <Alert key={key} severity="error" sx={{ mb: 1 }}>
                {translate(key, { _: key })}
              </Alert>
            ))}
            {children}
            {noReason ? null : (
              <TextInput
                source="reason"
                label="bo.fields.reason"
                validate={reasonValidators}
                multiline
                minRows={2}
                fullWidth
              />
            )}
          </DialogContent>
          <DialogActions>
            <MuiButton
              onClick={() => {
                setOpen(false);
                setRefusals([]);
              }}
            >
              {translate('ra.action.cancel')}
            </MuiButton>
            <MuiButton type="submit" variant="contained" color={color === 'inherit' ? 'primary' : color} disabled={busy}>
              {translate(label)}
            </MuiButton>
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
}
