// The library offered to every image field (slot form.image-library: the server catalog's location,
// egg category and egg forms). Shown only to those who may list the library (the slot's permission
// in plugin.json); this code is fetched only when such a form is on screen.
import { http, ImageLibraryPicker, type ImageLibrarySlotProps, type ImageLibrarySource } from '@orepanel/sdk';
import { imagesUrl, type LibraryImage } from './images-api';

const source: ImageLibrarySource = {
  async list(search, signal) {
    const page = await http.get<{ data: LibraryImage[] }>(imagesUrl.images(), { query: { search, per_page: 48 }, signal });
    return page.data.map(({ id, name, url }) => ({ id, name, url }));
  },
};

export default function ImageLibrarySlot({ value, onPick }: ImageLibrarySlotProps) {
  return <ImageLibraryPicker source={source} value={value} onPick={onPick} />;
}
