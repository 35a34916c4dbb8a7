// The one server a /server/:id/… page is about, read from the address; and, for the update page,
// the account's free resources and the minimums (from the create options).
import { useApi, useParams } from '@orepanel/sdk';
import type { CreateOptionsResponse, ServerDetailResponse } from '../shared/api';
import { api } from './paths';

export function useServerFromAddress() {
  const { id = '' } = useParams();
  return useApi<ServerDetailResponse>(id ? api.server(id) : null);
}

/** The server and the create options together: one loading state, one error, one retry. */
export function useServerWithOptions() {
  const server = useServerFromAddress();
  const options = useApi<CreateOptionsResponse>(api.createOptions);
  return {
    data: server.data && options.data ? { server: server.data, options: options.data } : undefined,
    loading: server.loading || options.loading,
    error: server.error ?? options.error,
    reload: () => {
      server.reload();
      options.reload();
    },
  };
}
