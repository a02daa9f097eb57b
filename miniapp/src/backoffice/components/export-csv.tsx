// CSV export as a link to the server's export (all matching rows, up to 100,000): the list's own
// sort and filter, downloaded by the browser with the operator's cookie — nothing is built in
// the page.
import DownloadIcon from '@mui/icons-material/Download';
import { Button, useListContext, useResourceContext, type RaRecord, type SortPayload } from 'react-admin';
import { exportUrl } from '../lib/data-provider';

export function ExportCsvButton() {
  const resource = useResourceContext() ?? '';
  const { sort, filterValues } = useListContext<RaRecord>() as { sort: SortPayload; filterValues: Record<string, unknown> };
  return (
    <Button
      component="a"
      href={exportUrl(resource, sort, filterValues)}
      download
      label="bo.action.export_csv"
      data-testid="export-csv"
    >
      <DownloadIcon />
    </Button>
  );
}
