// Moved to the sdk (a second plugin's admin screens needed it); kept here so the admin screens' imports stay short.
export { EmptyStateCard } from '@orepanel/sdk';
