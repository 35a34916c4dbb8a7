// Adding or editing one Discord server of the join-for-rewards list. The Discord id is typed once,
// when the server is added (rewards are tied to it); server errors land next to their field.
import { Button, Card, Checkbox, Form, Grid, TextField, UnchangedNote, useEditForm, useTranslation } from '@orepanel/sdk';
import { GUILD_LIMITS } from '../../shared/guild-rules';
import { checkGuildForm, EMPTY_GUILD_FORM, guildBody, type GuildBody, type GuildFormValues } from './guild-form';

export interface GuildFormProps {
  /** the guild being edited; null to add one */
  initial: GuildFormValues | null;
  onSubmit(body: GuildBody): Promise<void>;
  onCancel(): void;
}

export function GuildForm({ initial, onSubmit, onCancel }: GuildFormProps) {
  const { t } = useTranslation('earn-j4r');
  const form = useEditForm({
    initial: initial ?? EMPTY_GUILD_FORM,
    check: (values: GuildFormValues) => checkGuildForm(values, initial === null),
    changes: (values: GuildFormValues) => guildBody(initial, values),
    submit: onSubmit,
    problemText: (problem) => t(problem),
  });
  const { values, set, problem } = form;
  const title = initial ? t('config.form.editTitle', { name: initial.name }) : t('config.form.addTitle');

  return (
    <Card title={title}>
      <Form onSubmit={form.submit} aria-label={title} noValidate>
        <UnchangedNote form={form}>{t('config.form.nothingChanged')}</UnchangedNote>
        <Grid min={220} gap={16} css={{ alignItems: 'start' }}>
          <TextField
            label={t('config.form.guildId')}
            {...form.field('guild_id')}
            hint={initial ? t('config.form.guildIdFixed') : t('config.form.guildIdHint')}
            disabled={initial !== null}
            inputMode="numeric"
            maxLength={20}
            autoComplete="off"
          />
          <TextField label={t('config.form.name')} {...form.field('name')} maxLength={GUILD_LIMITS.nameMaxLength} autoComplete="off" />
          <TextField label={t('config.form.coins')} {...form.field('coins')} type="number" inputMode="numeric" min={1} max={GUILD_LIMITS.maxCoins} step={1} />
        </Grid>
        <TextField
          label={t('config.form.invite')}
          {...form.field('invite_url')}
          type="url"
          hint={t('config.form.inviteHint')}
          maxLength={GUILD_LIMITS.inviteMaxLength}
          autoComplete="off"
        />
        <TextField
          label={t('config.form.icon')}
          {...form.field('icon_url')}
          type="url"
          hint={t('config.form.iconHint')}
          maxLength={GUILD_LIMITS.iconMaxLength}
          autoComplete="off"
        />
        <Checkbox label={t('config.form.enabled')} name="enabled" checked={values.enabled} onChange={set('enabled')} hint={t('config.form.enabledHint')} />
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <Button type="submit">{initial ? t('config.form.save') : t('config.form.add')}</Button>
          <Button variant="ghost" onClick={onCancel}>
            {t('config.form.cancel')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
