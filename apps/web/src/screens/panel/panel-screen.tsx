export const PanelScreen = () => <section data-screen="PanelScreen" />;
