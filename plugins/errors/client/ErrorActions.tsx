// The ways out of an error page: home (the dashboard when logged in, else the login page), back to the
// previous page when there is one, and optionally a retry.
import { Button, useNavigate, useSession, useTranslation } from '@orepanel/sdk';

export interface ErrorActionsProps {
  /** "Try again" instead of "Go back": returns to the page that failed, which loads again */
  retry?: boolean;
}

/** True when the browser has a page to go back to in this tab. */
function canGoBack(): boolean {
  return typeof window !== 'undefined' && window.history.length > 1;
}

export function ErrorActions({ retry = false }: ErrorActionsProps) {
  const { t } = useTranslation('errors');
  const navigate = useNavigate();
  const { loggedIn } = useSession();
  const back = canGoBack();

  return (
    <>
      {retry && back && <Button onClick={() => navigate(-1)}>{t('actions.retry')}</Button>}
      {loggedIn ? (
        <Button to="/dashboard" variant={retry && back ? 'secondary' : 'primary'} icon="home">
          {t('actions.dashboard')}
        </Button>
      ) : (
        <Button to="/auth/login" variant={retry && back ? 'secondary' : 'primary'} icon="user">
          {t('actions.login')}
        </Button>
      )}
      {back && !retry && (
        <Button variant="secondary" onClick={() => navigate(-1)}>
          {t('actions.back')}
        </Button>
      )}
    </>
  );
}
