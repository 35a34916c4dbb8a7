// The legal plugin's API: the privacy policy and terms of service text from its settings. An empty
// setting answers content "" and the page shows its generated default.
import { defineServerPlugin } from '@orepanel/sdk/server';

const DOCUMENTS = {
  'privacy-policy': 'legal_privacy_policy',
  'terms-of-service': 'legal_terms_of_service',
} as const;

type DocumentName = keyof typeof DOCUMENTS;

function isDocument(name: string): name is DocumentName {
  return Object.hasOwn(DOCUMENTS, name);
}

export default defineServerPlugin({
  id: 'legal',
  register(app, ctx) {
    app.get<{ Params: { document: string } }>(
      '/legal/:document',
      {
        schema: {
          params: {
            type: 'object',
            required: ['document'],
            properties: { document: { type: 'string', minLength: 1, maxLength: 64 } },
          },
          response: {
            200: {
              type: 'object',
              required: ['document', 'content', 'updated_at'],
              properties: { document: { type: 'string' }, content: { type: 'string' }, updated_at: { type: ['string', 'null'] } },
            },
          },
        },
      },
      async (request, reply) => {
        const { document } = request.params;
        if (!isDocument(document)) throw ctx.httpError(404, 'DOCUMENT_NOT_FOUND', 'There is no such document.', 'document');
        const entry = await ctx.settings.getEntry(DOCUMENTS[document]);
        reply.header('cache-control', 'no-cache');
        return { document, content: typeof entry.value === 'string' ? entry.value : '', updated_at: entry.updatedAt };
      },
    );
  },
});
