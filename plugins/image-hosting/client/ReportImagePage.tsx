// /images/report/:name: the report form the viewer page links to. No login needed; the server limits
// reports per address. The image is shown so the reporter sees what they report.
import { useState } from 'react';
import { Alert, Button, Card, Form, http, Page, Select, TextArea, theme, useParams, useTranslation } from '@orepanel/sdk';
import { imagesUrl, REPORT_REASONS, type ReportReason } from './api';

const NAME = /^[A-Za-z0-9_-]{16}$/;

export default function ReportImagePage() {
  const { t } = useTranslation('image-hosting');
  const name = useParams().name ?? '';
  const [reason, setReason] = useState<ReportReason>('inappropriate');
  const [details, setDetails] = useState('');
  const [sent, setSent] = useState(false);
  const valid = NAME.test(name);
  return (
    <Page title={t('titles.report')} description={t('report.description')}>
      <Card>
        {!valid ? (
          <Alert tone="error">{t('report.unknown')}</Alert>
        ) : sent ? (
          <Alert tone="success" title={t('report.thanksTitle')}>
            {t('report.thanks')}
          </Alert>
        ) : (
          <Form
            aria-label={t('titles.report')}
            onSubmit={async () => {
              await http.post(imagesUrl.report(name), { reason, details: details.trim() });
              setSent(true);
            }}
          >
            <div css={{ display: 'grid', gap: 12, maxWidth: 560 }}>
              <img
                src={imagesUrl.raw(name)}
                alt={t('report.imageAlt')}
                css={{ maxWidth: '100%', maxHeight: 240, objectFit: 'contain', borderRadius: theme.radii.md, background: theme.colors.surfaceRaised }}
              />
              <Select
                label={t('report.reason')}
                name="reason"
                value={reason}
                options={REPORT_REASONS.map((value) => ({ value, label: t(`reasons.${value}`) }))}
                onChange={(value) => setReason(REPORT_REASONS.find((r) => r === value) ?? 'other')}
              />
              <TextArea label={t('report.details')} name="details" value={details} maxLength={500} rows={4} onChange={setDetails} />
              <div>
                <Button type="submit" variant="danger">
                  {t('report.send')}
                </Button>
              </div>
            </div>
          </Form>
        )}
      </Card>
    </Page>
  );
}
