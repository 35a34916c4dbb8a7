// The UI kit: dark theme, responsive, accessible. Every plugin builds its pages from these.
export { theme, type Theme } from './theme';
export { Icon, ICON_NAMES, isIconName, type IconName, type IconProps } from './icons';
export { Button, type ButtonProps, type ButtonSize, type ButtonVariant } from './Button';
export {
  Form,
  TextField,
  PasswordField,
  Checkbox,
  Select,
  TextArea,
  useErrorText,
  type FormProps,
  type FormValues,
  type TextFieldProps,
  type PasswordFieldProps,
  type CheckboxProps,
  type SelectProps,
  type SelectOption,
  type TextAreaProps,
} from './form';
export { useFormStatus, type FormStatus } from './form-context';
export { SidebarLink, SidebarSection, sidebarItemStyle, sidebarLabelStyle, type SidebarLinkProps, type SidebarSectionProps, type SidebarSectionSlotProps } from './sidebar';
export { UnchangedNote, type UnchangedNoteProps } from './unchanged-note';
export {
  Alert,
  Badge,
  EmptyState,
  Skeleton,
  Spinner,
  VisuallyHidden,
  type AlertProps,
  type BadgeProps,
  type BadgeTone,
  type EmptyStateProps,
  type SkeletonProps,
  type SpinnerProps,
  type Tone,
} from './feedback';
export {
  AppMark,
  AuthLayout,
  Card,
  ErrorLayout,
  Grid,
  Page,
  StatCard,
  useDocumentTitle,
  type AuthLayoutProps,
  type CardProps,
  type ErrorLayoutProps,
  type GridProps,
  type PageProps,
  type StatCardProps,
} from './layout';
export { GlobalStyles } from './GlobalStyles';
export {
  DataTable,
  PagedList,
  Pagination,
  SearchField,
  usePagedList,
  visiblePages,
  type DataColumn,
  type DataTableProps,
  type PageMeta,
  type PagedListState,
  type PagedListOptions,
  type PagedListProps,
  type PagedResponse,
  type PaginationProps,
  type SearchFieldProps,
} from './list';
export { PermissionGate, useHasPermission, type PermissionGateProps } from './access';
export { ConfirmPanel, confirmAction, type ConfirmActionOptions, type ConfirmActionResult, type ConfirmPanelProps } from './confirm';
export { Tabs, type TabItem, type TabsProps } from './tabs';
export { LoadError, type LoadErrorProps } from './load-error';
export { LedgerList, type LedgerListProps } from './ledger';
export { InlineSearchForm, type InlineSearchFormProps } from './inline-search';
export { ResourceState, EmptyStateCard, type ResourceStateProps } from './resource-state';
export { EarlySupporterBadge } from './early-supporter';
export { RowActions, type RowAction } from './row-actions';
export { Avatar, RoleBadge, initialsOf, roleColor, DEFAULT_ROLE_COLOR, type AvatarProps, type RoleBadgeProps } from './user-identity';
export { LazyImage, LAZY_IMAGE_OBSERVER_OPTIONS, resolveImageSource, type LazyImageProps, type ImageVariant } from './lazy-image';
export { CopyButton, type CopyButtonProps } from './copy-button';
export {
  FilePicker,
  StoredFileList,
  UploadProgressBar,
  useFileSelection,
  formWithFiles,
  formatFileSize,
  type FilePickerProps,
  type FileSelection,
  type FileLimitsView,
  type FileRefusal,
  type StoredFileLink,
} from './file-picker';
export { ProgressBar, type ProgressBarProps } from './progress-bar';
export { TaskCard, TaskNote, type TaskCardProps } from './task-card';
export { IMAGE_LIBRARY_SLOT, ImageLibraryPicker, type ImageLibraryPickerProps, type ImageLibrarySlotProps, type ImageLibrarySource, type PickableImage } from './image-picker';
