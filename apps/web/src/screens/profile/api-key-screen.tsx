export const ApiKeyScreen = () => <section data-screen="ApiKeyScreen" />;
