// Moved to the sdk (a second plugin's admin list needed it); kept here so the admin screens' imports stay short.
export { RowActions, type RowAction } from '@orepanel/sdk';
