// Attachments on both sides' pages: the limits the server publishes (they are settings), sending a
// message with its files (a form with upload progress; JSON when there is none), and a message's
// stored files shown inline. Each side fetches files through its own route, which checks access.
import { formWithFiles, http, StoredFileList, useApi, type FileLimitsView } from '@orepanel/sdk';
import { useMemo } from 'react';
import type { AttachmentView } from '../server/attachments';

export type { AttachmentView };

export type Side = 'customer' | 'staff';

const base = (side: Side) => (side === 'customer' ? '/api/user/tickets' : '/api/admin/tickets');

export const attachmentUrl = {
  limits: (side: Side) => `${base(side)}/attachments/limits`,
  file: (side: Side, ticketId: number | string, key: string) => `${base(side)}/${encodeURIComponent(String(ticketId))}/attachments/${encodeURIComponent(key)}`,
};

interface LimitsAnswer {
  max_files: number;
  max_bytes: number;
  extensions: string[];
}

/** What this side may attach (null while loading or when the limits could not be read: no picker). */
export function useAttachmentLimits(side: Side): FileLimitsView | null {
  const { data } = useApi<LimitsAnswer>(attachmentUrl.limits(side));
  return useMemo(() => (data ? { maxFiles: data.max_files, maxBytes: data.max_bytes, extensions: data.extensions } : null), [data]);
}

/**
 * POSTs a message: JSON when it has no files (what every client can send), else a form of the same
 * fields and the files, reporting the upload's progress (0 to 1).
 */
export function sendWithFiles<T>(
  url: string,
  fields: Readonly<Record<string, string | number | undefined>>,
  files: readonly File[],
  onProgress: (fraction: number) => void,
): Promise<T> {
  if (files.length === 0) return http.post<T>(url, Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)));
  return http.upload<T>(url, formWithFiles(fields, files), { onProgress: ({ loaded, total }) => onProgress(total > 0 ? loaded / total : 0) });
}

/** A message's files inline: images as thumbnails that open full size, others as download chips. */
export function MessageAttachments({ side, ticketId, attachments }: { side: Side; ticketId: number; attachments: readonly AttachmentView[] | undefined }) {
  const files = useMemo(() => (attachments ?? []).map((file) => ({ ...file, url: attachmentUrl.file(side, ticketId, file.key) })), [attachments, side, ticketId]);
  return <StoredFileList files={files} />;
}
