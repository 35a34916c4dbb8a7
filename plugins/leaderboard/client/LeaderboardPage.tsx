// /leaderboard: one tab per board (coins, servers, AFK minutes, referrals, links). Only the shown tab
// asks the server; the tab is in the address (?type=) so a board can be linked to. The signed-in user
// sees their own place above the list, also when they are outside the top N.
import { Page, Tabs, useSearchParams, useTranslation } from '@orepanel/sdk';
import { BOARD_TYPES, isBoardType, type BoardType } from '../shared/boards';
import { Board } from './Board';

const TYPE_PARAM = 'type';

export default function LeaderboardPage() {
  const { t } = useTranslation('leaderboard');
  const [params, setParams] = useSearchParams();
  const asked = params.get(TYPE_PARAM);
  const active: BoardType = isBoardType(asked) ? asked : BOARD_TYPES[0];

  return (
    <Page title={t('title')} description={t('description')}>
      <Tabs
        label={t('tabsLabel')}
        active={active}
        onChange={(id) =>
          setParams(
            (current) => {
              const next = new URLSearchParams(current);
              next.set(TYPE_PARAM, id);
              return next;
            },
            { replace: true },
          )
        }
        items={BOARD_TYPES.map((type) => ({ id: type, label: t(`boards.${type}.tab`), content: type === active ? <Board type={type} /> : null }))}
      />
    </Page>
  );
}
