// A multipart/form-data body as a browser sends it (FormData through a Request), for app.inject.
export interface FormFile {
  name: string;
  bytes: Buffer;
  /** the type the browser claims (the server decides by the bytes); default application/octet-stream */
  claim?: string;
}

export async function multipartForm(files: readonly FormFile[], fields: Readonly<Record<string, string>> = {}, fileField = 'file') {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  for (const file of files) data.append(fileField, new Blob([new Uint8Array(file.bytes)], { type: file.claim ?? 'application/octet-stream' }), file.name);
  const request = new Request('http://panel.test/', { method: 'POST', body: data });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') ?? '' } };
}
