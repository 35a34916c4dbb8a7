// Attaching files to a form: a selection (chosen by the picker, dropped, or pasted into a text box as
// a screenshot) checked against the limits the server publishes, a list of the chosen files with
// remove buttons and image previews, and the upload's progress bar. The server stays the authority:
// the checks here only spare the user a refused upload. Also the list of files already stored.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSdkText } from '../i18n';
import { Button } from './Button';
import { Icon } from './icons';
import { LazyImage } from './lazy-image';
import { ProgressBar } from './progress-bar';
import { theme } from './theme';

const c = theme.colors;

/** What a form may attach: the server's published limits. */
export interface FileLimitsView {
  maxFiles: number;
  maxBytes: number;
  /** accepted name endings without the dot (png, jpg, log…); empty: any name */
  extensions: readonly string[];
}

export type FileRefusal = { file: string; reason: 'tooLarge' | 'typeRefused' } | { file: string; reason: 'tooMany' };

/** The file's size for people, in the current language (B, kB, MB, GB: a panel's backup archive is gigabytes). */
export function formatFileSize(bytes: number, language?: string): string {
  const units = [
    ['gigabyte', 1024 ** 3],
    ['megabyte', 1024 ** 2],
    ['kilobyte', 1024],
  ] as const;
  const [unit, size] = units.find(([, size]) => bytes >= size) ?? (['byte', 1] as const);
  const value = bytes / size;
  // ICU's short form of a byte is "byte" in English ("76 byte"); the long one reads right in every language
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit,
    unitDisplay: unit === 'byte' ? 'long' : 'short',
    maximumFractionDigits: value < 10 && unit !== 'byte' ? 1 : 0,
  }).format(value);
}

const extensionOf = (name: string) => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** A pasted image has no useful name ("image.png", or none): give it one with the right ending. */
function namedPaste(file: File, index: number): File {
  if (file.name && file.name !== 'image.png') return file;
  const ending = file.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png';
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
  return new File([file], `screenshot-${stamp}${index > 0 ? `-${index + 1}` : ''}.${ending}`, { type: file.type, lastModified: file.lastModified });
}

export interface FileSelection {
  files: readonly File[];
  /** files refused by the last add (too large, not an accepted kind, one too many) */
  refused: readonly FileRefusal[];
  limits: FileLimitsView | null;
  add(files: Iterable<File>): void;
  remove(index: number): void;
  clear(): void;
  /** for a text box's onPaste: a pasted screenshot (or copied file) is added; pasted text stays text */
  onPaste(event: ClipboardEvent<HTMLElement>): void;
}

/**
 * The files a form will send, checked against `limits` (null: not known yet, nothing can be added).
 * @example const attachments = useFileSelection(limits); <TextArea onPaste={attachments.onPaste} /> <FilePicker selection={attachments} />
 */
export function useFileSelection(limits: FileLimitsView | null): FileSelection {
  const [files, setFiles] = useState<readonly File[]>([]);
  const [refused, setRefused] = useState<readonly FileRefusal[]>([]);
  // the files as the last change left them, so two adds before a render both count
  const current = useRef(files);
  current.current = files;
  const add = useCallback(
    (incoming: Iterable<File>) => {
      if (!limits) return;
      const next = [...current.current];
      const problems: FileRefusal[] = [];
      for (const file of incoming) {
        const extension = extensionOf(file.name);
        if (limits.extensions.length > 0 && !limits.extensions.includes(extension)) problems.push({ file: file.name, reason: 'typeRefused' });
        else if (file.size > limits.maxBytes) problems.push({ file: file.name, reason: 'tooLarge' });
        else if (next.length >= limits.maxFiles) problems.push({ file: file.name, reason: 'tooMany' });
        else next.push(file);
      }
      current.current = next;
      setFiles(next);
      setRefused(problems);
    },
    [limits],
  );
  const remove = useCallback((index: number) => {
    current.current = current.current.filter((_, i) => i !== index);
    setFiles(current.current);
    setRefused([]);
  }, []);
  const clear = useCallback(() => {
    current.current = [];
    setFiles([]);
    setRefused([]);
  }, []);
  const onPaste = useCallback(
    (event: ClipboardEvent<HTMLElement>) => {
      const pasted = [...(event.clipboardData?.files ?? [])];
      if (pasted.length === 0 || !limits || limits.maxFiles === 0) return;
      event.preventDefault();
      add(pasted.map(namedPaste));
    },
    [add, limits],
  );
  return useMemo(() => ({ files, refused, limits, add, remove, clear, onPaste }), [files, refused, limits, add, remove, clear, onPaste]);
}

/** A FormData of text fields and files (each file under `fileField`), as an upload route takes it. */
export function formWithFiles(fields: Readonly<Record<string, string | number | undefined>>, files: readonly File[], fileField = 'files'): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, String(value));
  for (const file of files) form.append(fileField, file, file.name);
  return form;
}

/**
 * A local preview of a chosen image, as a data: URL (the panel's Content-Security-Policy allows data:
 * images, not blob: ones); none for other files or very large images.
 */
function usePreview(file: File): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file.type.startsWith('image/') || file.size > 10 * 1024 * 1024 || typeof FileReader === 'undefined') return;
    const reader = new FileReader();
    let current = true;
    reader.onload = () => {
      if (current && typeof reader.result === 'string') setUrl(reader.result);
    };
    reader.readAsDataURL(file);
    return () => {
      current = false;
      reader.abort();
    };
  }, [file]);
  return url;
}

const chipStyle = {
  display: 'flex',
  alignItems: 'center',
  gap: 8,
  minWidth: 0,
  maxWidth: '100%',
  padding: '6px 8px',
  borderRadius: theme.radii.md,
  border: `1px solid ${c.border}`,
  background: c.surfaceRaised,
  fontSize: theme.font.size.sm,
} as const;

const thumbStyle = { width: 40, height: 40, objectFit: 'cover', borderRadius: theme.radii.sm, flex: 'none', background: c.background } as const;

function ChosenFile({ file, onRemove, disabled }: { file: File; onRemove(): void; disabled?: boolean }) {
  const text = useSdkText();
  const { i18n } = useTranslation();
  const preview = usePreview(file);
  return (
    <li css={chipStyle}>
      {preview ? <img src={preview} alt="" css={thumbStyle} /> : <Icon name="archive" size={18} />}
      <span css={{ display: 'grid', minWidth: 0 }}>
        <span css={{ color: c.text, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{file.name}</span>
        <span css={{ color: c.muted, fontSize: theme.font.size.xs }}>{formatFileSize(file.size, i18n.language)}</span>
      </span>
      <Button variant="ghost" size="sm" icon="close" aria-label={text('fileRemove', { name: file.name })} onClick={onRemove} disabled={disabled} />
    </li>
  );
}

export interface FilePickerProps {
  selection: FileSelection;
  /** the field's label (default: the sdk's "Attachments") */
  label?: string;
  /** 0 to 1 while the form uploads; null or undefined otherwise */
  progress?: number | null;
  disabled?: boolean;
}

/**
 * The attach field: a drop zone with a button that opens the file chooser, the limits in words, the
 * chosen files (image previews, name, size, remove), refusals, and the upload's progress bar. Hidden
 * while the limits allow no file.
 */
export function FilePicker({ selection, label, progress, disabled }: FilePickerProps) {
  const text = useSdkText();
  const { i18n } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const { limits } = selection;
  if (!limits || limits.maxFiles === 0) return null;
  const uploading = progress !== null && progress !== undefined;
  const full = selection.files.length >= limits.maxFiles;
  const accept = limits.extensions.map((e) => `.${e}`).join(',');
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled && !uploading) selection.add(event.dataTransfer.files);
  };
  const refusalText = (refusal: FileRefusal) =>
    refusal.reason === 'tooMany'
      ? text('fileTooMany', { name: refusal.file, count: limits.maxFiles })
      : refusal.reason === 'tooLarge'
        ? text('fileTooLarge', { name: refusal.file, size: formatFileSize(limits.maxBytes, i18n.language) })
        : text('fileTypeRefused', { name: refusal.file, types: limits.extensions.join(', ') });
  return (
    <div css={{ display: 'grid', gap: 8, minWidth: 0 }}>
      <div
        role="group"
        aria-label={label ?? text('attachments')}
        aria-describedby={hintId}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        css={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 8,
          padding: 10,
          borderRadius: theme.radii.md,
          border: `1px dashed ${dragging ? c.primary : c.borderStrong}`,
          background: dragging ? c.primarySoft : 'transparent',
          transition: `background ${theme.transition}, border-color ${theme.transition}`,
        }}
      >
        <Button variant="secondary" size="sm" icon="archive" onClick={() => inputRef.current?.click()} disabled={disabled || uploading || full}>
          {label ?? text('attachFiles')}
        </Button>
        <span id={hintId} css={{ color: c.muted, fontSize: theme.font.size.xs, minWidth: 0, flex: '1 1 200px' }}>
          {text('fileLimits', { count: limits.maxFiles, size: formatFileSize(limits.maxBytes, i18n.language), types: limits.extensions.join(', ') })} {text('fileDropHint')}
        </span>
        <input
          ref={inputRef}
          type="file"
          multiple={limits.maxFiles > 1}
          accept={accept || undefined}
          hidden
          data-testid="file-picker-input"
          onChange={(event) => {
            if (event.target.files) selection.add(event.target.files);
            event.target.value = '';
          }}
        />
      </div>
      {selection.refused.length > 0 && (
        <ul role="alert" css={{ margin: 0, paddingInlineStart: 18, color: c.danger, fontSize: theme.font.size.sm }}>
          {selection.refused.map((refusal) => (
            <li key={`${refusal.file}-${refusal.reason}`}>{refusalText(refusal)}</li>
          ))}
        </ul>
      )}
      {selection.files.length > 0 && (
        <ul aria-label={text('attachments')} css={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          {selection.files.map((file, index) => (
            <ChosenFile key={`${file.name}-${file.size}-${file.lastModified}-${index}`} file={file} onRemove={() => selection.remove(index)} disabled={uploading} />
          ))}
        </ul>
      )}
      {uploading && <UploadProgressBar value={progress} />}
    </div>
  );
}

/** The upload's progress, 0 to 1. */
export function UploadProgressBar({ value }: { value: number }) {
  const text = useSdkText();
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div css={{ display: 'grid', gap: 4 }}>
      <ProgressBar done={percent} total={100} label={text('uploading', { percent })} height={6} />
      <span css={{ color: c.muted, fontSize: theme.font.size.xs }}>{text('uploading', { percent })}</span>
    </div>
  );
}

/** A file already stored, as a list shows it. */
export interface StoredFileLink {
  key: string;
  name: string;
  /** its stored type (image/png…, application/pdf, text/plain) */
  type: string;
  size: number;
  /** where the browser fetches it (a private route that checks access) */
  url: string;
}

/**
 * Stored files inline in a conversation: images as thumbnails that open full size in a new tab,
 * other files as a chip with name and size that downloads.
 */
export function StoredFileList({ files, label }: { files: readonly StoredFileLink[]; label?: string }) {
  const text = useSdkText();
  const { i18n } = useTranslation();
  if (files.length === 0) return null;
  const images = files.filter((f) => f.type.startsWith('image/'));
  const others = files.filter((f) => !f.type.startsWith('image/'));
  return (
    <div role="group" aria-label={label ?? text('attachments')} css={{ display: 'grid', gap: 8, minWidth: 0 }}>
      {images.length > 0 && (
        <ul css={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          {images.map((file) => (
            <li key={file.key}>
              <a
                href={file.url}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={text('openFullSize', { name: file.name })}
                css={{ display: 'block', borderRadius: theme.radii.md, border: `1px solid ${c.border}`, overflow: 'hidden', lineHeight: 0 }}
              >
                <LazyImage src={file.url} alt={file.name} css={{ width: 160, maxWidth: '40vw', height: 120, objectFit: 'cover', background: c.background }} />
              </a>
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <ul css={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          {others.map((file) => (
            <li key={file.key} css={{ minWidth: 0, maxWidth: '100%' }}>
              <a href={file.url} download={file.name} aria-label={text('downloadFile', { name: file.name })} css={{ ...chipStyle, color: c.text, textDecoration: 'none' }}>
                <Icon name="archive" size={16} />
                <span css={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{file.name}</span>
                <span css={{ color: c.muted, fontSize: theme.font.size.xs, flex: 'none' }}>{formatFileSize(file.size, i18n.language)}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
