// /mc-admin/redeem-codes: every code, newest first, paged and searched on the server; each row says
// how many of its uses are taken and whether it can be redeemed now.
import { Badge, Button, Page, PagedList, PermissionGate, RowActions, theme, useHasPermission, usePagedList, useTranslation, type BadgeTone, type DataColumn } from '@orepanel/sdk';
import { useMemo } from 'react';
import type { CodeState } from '../../shared/code-rules';
import { adminPath, adminUrl, PERMISSIONS, type RedeemCode } from '../api';

const STATE_TONE: Record<CodeState, BadgeTone> = { active: 'success', disabled: 'neutral', expired: 'warning', used_up: 'info' };

export default function RedeemCodesPage() {
  const { t } = useTranslation('earn-redeem');
  const list = usePagedList<RedeemCode>(adminUrl.codes(), { perPage: 20 });
  const mayEdit = useHasPermission(PERMISSIONS.edit);
  const mayDelete = useHasPermission(PERMISSIONS.delete);

  const columns = useMemo<DataColumn<RedeemCode>[]>(() => {
    const out: DataColumn<RedeemCode>[] = [
      {
        id: 'code',
        header: t('manage.columns.code'),
        primary: true,
        cell: (code) => (
          <span css={{ display: 'inline-flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
            <code css={{ fontFamily: theme.font.mono, fontWeight: 600, overflowWrap: 'anywhere' }}>{code.code}</code>
            <Badge tone={STATE_TONE[code.state]}>{t(`manage.state.${code.state}`)}</Badge>
          </span>
        ),
      },
      { id: 'coins', header: t('manage.columns.coins'), align: 'end', cell: (code) => t('number', { value: code.coins }) },
      { id: 'uses', header: t('manage.columns.uses'), align: 'end', cell: (code) => t('manage.usesOf', { redeemed: code.redeemed, uses: code.uses }) },
      { id: 'expires', header: t('manage.columns.expires'), cell: (code) => (code.expires_at ? t('dateTime', { value: new Date(code.expires_at) }) : t('manage.never')) },
    ];
    if (mayEdit || mayDelete) {
      out.push({
        id: 'actions',
        header: t('manage.columns.actions'),
        align: 'end',
        cell: (code) => (
          <RowActions
            actions={[
              mayEdit && { to: adminPath.edit(code.id), text: t('manage.edit'), label: t('manage.editCode', { code: code.code }) },
              mayDelete && { to: adminPath.delete(code.id), text: t('manage.delete'), label: t('manage.deleteCode', { code: code.code }), variant: 'ghost' },
            ]}
          />
        ),
      });
    }
    return out;
  }, [t, mayEdit, mayDelete]);

  return (
    <Page
      title={t('manage.titles.list')}
      description={t('manage.description')}
      actions={
        <PermissionGate permission={PERMISSIONS.create}>
          <Button icon="gift" to={adminPath.create}>
            {t('manage.create')}
          </Button>
        </PermissionGate>
      }
    >
      <PagedList
        list={list}
        caption={t('manage.titles.list')}
        columns={columns}
        rowKey={(code) => code.id}
        searchLabel={t('manage.search')}
        empty={{ icon: 'gift', title: t('manage.empty') }}
      />
    </Page>
  );
}
