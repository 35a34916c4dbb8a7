/** The plugin API version: a plugin's `sdk` range must accept it; its major is the API's major. */
export const SDK_VERSION = '2.0.0';
