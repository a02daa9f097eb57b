// System: the maintenance switch (with a reason, audited), the background jobs and their last
// runs, and the notification outbox's backlog.
import { Alert, Box, Card, CardContent, Chip, CircularProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { ActionDialogButton } from '../components/action-dialog';
import type { BackofficeDataProvider } from '../lib/data-provider';

function time(seconds: number | null, locale: string): string {
  return seconds === null ? '—' : new Date(seconds * 1000).toLocaleString(locale);
}

export function SystemPage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const query = useQuery({ queryKey: ['backoffice', 'system'], queryFn: () => dataProvider.system() });
  const system = query.data;
  return (
    <Box sx={{ mt: 1, display: 'grid', gap: 2 }}>
      <Title title="bo.system.title" />
      {query.isPending ? <CircularProgress aria-label={translate('ra.page.loading')} /> : null}
      {query.error ? <Alert severity="error">{query.error.message}</Alert> : null}
      {system ? (
        <>
          <Card component="section">
            <CardContent>
              <Typography variant="h6" component="h2">{translate('bo.system.maintenance')}</Typography>
              <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', my: 1 }}>
                <Chip
                  data-testid="maintenance-state"
                  color={system.maintenance.on ? 'warning' : 'success'}
                  label={translate(system.maintenance.on ? 'bo.system.maintenance_on' : 'bo.system.maintenance_off')}
                />
                {system.maintenance.reason ? <span>{system.maintenance.reason}</span> : null}
                <ActionDialogButton
                  label={system.maintenance.on ? 'bo.system.turn_off' : 'bo.system.turn_on'}
                  color={system.maintenance.on ? 'primary' : 'error'}
                  testId="maintenance-switch"
                  success="bo.system.switched"
                  onSubmit={async (values) => {
                    await dataProvider.post('/system/maintenance', { on: !system.maintenance.on, reason: values.reason });
                    await query.refetch();
                  }}
                />
              </Box>
            </CardContent>
          </Card>
          <Card component="section">
            <CardContent>
              <Typography variant="h6" component="h2">{translate('bo.system.jobs')}</Typography>
              <Box sx={{ overflowX: 'auto' }}>
                <Table size="small">
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('bo.system.job')}</TableCell>
                      <TableCell>{translate('bo.system.last_run')}</TableCell>
                      <TableCell>{translate('bo.system.last_ok')}</TableCell>
                      <TableCell>{translate('bo.system.last_error')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {system.jobs.map((job) => (
                      <TableRow key={job.name}>
                        <TableCell>{job.name}</TableCell>
                        <TableCell>{time(job.last_run_at, locale)}</TableCell>
                        <TableCell>{job.last_ok === null ? '—' : translate(job.last_ok ? 'ra.boolean.true' : 'ra.boolean.false')}</TableCell>
                        <TableCell>{job.last_error ?? '—'}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
            </CardContent>
          </Card>
          <Card component="section">
            <CardContent>
              <Typography variant="h6" component="h2">{translate('bo.system.outbox')}</Typography>
              <p>{translate('bo.system.outbox_pending', { count: system.outbox.pending })}</p>
              <p>{translate('bo.system.outbox_oldest', { time: time(system.outbox.oldest_at, locale) })}</p>
            </CardContent>
          </Card>
        </>
      ) : null}
    </Box>
  );
}
