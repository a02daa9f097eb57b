// Content: the content service (Strapi v4-compatible, `/cms/api`) has no editor of its own in
// this console yet; this page says where the content lives and links to its API and to the site
// for a preview. Writing content needs a content token (CROUPIER_CMS_TOKENS) or an editor account.
import { Card, CardContent, Link, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';

export function ContentPage() {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 1 }}>
      <Title title="bo.content.title" />
      <CardContent>
        <Typography component="p" gutterBottom>{translate('bo.content.intro')}</Typography>
        <Typography component="p"><Link href="/cms/api/pages?locale=en">{translate('bo.content.api')}</Link></Typography>
        <Typography component="p"><Link href="/" target="_blank" rel="noopener">{translate('bo.content.preview')}</Link></Typography>
      </CardContent>
    </Card>
  );
}
